"""Import every domain's models so that the metadata is complete (Alembic and tests read it)."""

from powerportal.accounts import models as accounts_models
from powerportal.alarms import models as alarms_models
from powerportal.billing import models as billing_models
from powerportal.control import models as control_models
from powerportal.core.database import Base
from powerportal.dashboard import models as dashboard_models
from powerportal.devices import models as devices_models
from powerportal.energy import models as energy_models
from powerportal.gateways import models as gateways_models
from powerportal.load_ident import models as load_ident_models
from powerportal.logs import models as logs_models
from powerportal.projects import models as projects_models
from powerportal.reports import models as reports_models
from powerportal.shares import models as shares_models
from powerportal.sms import models as sms_models
from powerportal.telemetry import models as telemetry_models

__all__ = [
    "Base",
    "accounts_models",
    "alarms_models",
    "billing_models",
    "control_models",
    "dashboard_models",
    "devices_models",
    "energy_models",
    "gateways_models",
    "load_ident_models",
    "logs_models",
    "projects_models",
    "reports_models",
    "shares_models",
    "sms_models",
    "telemetry_models",
]
