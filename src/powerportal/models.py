"""Import every domain's models so that the metadata is complete (Alembic and tests read it)."""

from powerportal.accounts import models as accounts_models
from powerportal.core.database import Base
from powerportal.logs import models as logs_models
from powerportal.sms import models as sms_models

__all__ = ["Base", "accounts_models", "logs_models", "sms_models"]
