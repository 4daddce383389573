"""Wire shapes of the data dashboard (数据大屏) and its kiosk links."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from powerportal.core.schemas import PageQuery, Reply, Schema, Sysno

ProjectState = Literal["normal", "offline", "alarm", "empty"]
# Dark themes of the large screen, chosen by the profile's serial_no (大屏主题); "brand" follows the brand.
THEMES = ("brand", "1", "2", "3", "4")
Theme = Literal["brand", "1", "2", "3", "4"]


class ScreenRead(Reply):
    """How the screen presents itself: its title, theme and whether the brand shows the map."""

    title: str
    theme: Theme
    map: bool
    brand_color: str


class EquipmentCounts(Reply):
    """Projects, gateways and devices, with how many are online."""

    project_count: int
    gateway_count: int
    gateway_online_count: int
    device_count: int
    device_online_count: int


class ProjectPoint(Reply):
    """A project on the map: where it is and its state (alarm: an open alarm; offline: equipment offline)."""

    sysno: int
    name: str
    longitude: float | None
    latitude: float | None
    state: ProjectState
    gateway_count: int
    gateway_online_count: int
    device_count: int
    device_online_count: int
    open_alarm_count: int


class LevelCount(Reply):
    """Alarms of one level."""

    level: int
    label: str
    count: int


class AlarmCounts(Reply):
    """Alarms begun today (the customer's day) and those still open, by level (提示, 重要, 紧急)."""

    today_count: int
    today_by_level: list[LevelCount]
    open_count: int
    open_by_level: list[LevelCount]


class LatestAlarm(Reply):
    """One of the latest alarms, for the scrolling list."""

    sysno: int
    project_name: str
    target_name: str
    device_id: str
    type_label: str
    level: int
    level_name: str
    start_time: str
    open: bool


class EnergyFigure(Reply):
    """kWh and ¥ of a span, per tariff period (尖, 峰, 平, 谷, 深谷) and in all."""

    kwh: list[float]
    cost: list[float]
    total_kwh: float
    total_cost: float


class EnergyFigures(Reply):
    """Today's, this month's and this year's consumption of every visible project (总进线 left out)."""

    periods: list[str]
    today: EnergyFigure
    month: EnergyFigure
    year: EnergyFigure


class PowerPoint(Reply):
    """The average total power of a finished quarter-hour (kW), from its consumption."""

    time: str
    start: str
    kw: float


class TopConsumer(Reply):
    """One of the devices that used most today."""

    device_sysno: int
    name: str
    project_name: str
    kwh: float
    cost: float


class LoadIdentToday(Reply):
    """Forbidden appliances switched on today (``available`` false while no load event was ever reported)."""

    available: bool
    violations_today: int


class DashboardData(Reply):
    """Everything the large screen shows, read in one call."""

    screen: ScreenRead
    updated_at: str
    counts: EquipmentCounts
    projects: list[ProjectPoint]
    alarms: AlarmCounts
    latest_alarms: list[LatestAlarm]
    energy: EnergyFigures
    power: list[PowerPoint]
    top_consumers: list[TopConsumer]
    load_ident: LoadIdentToday


class KioskDataQuery(Schema):
    """A kiosk link's token (the part of ``/kiosk/<token>`` after the slash)."""

    token: str = Field(title="大屏链接", min_length=1, max_length=128)


class KioskLinkCreate(Schema):
    """A new kiosk link: a name to recognise it by and how many days it lasts."""

    name: str = Field(title="名称", min_length=1, max_length=32)
    days: int = Field(default=30, title="有效天数", ge=1, le=365)


class KioskLinkQuery(PageQuery):
    """The customer's kiosk links."""


class KioskLinkRead(Reply):
    """A kiosk link as listed (its token is never shown again)."""

    sysno: int
    name: str
    create_time: str
    expire_time: str
    revoke_time: str | None
    last_used_time: str | None
    state: Literal["active", "expired", "revoked"]


class KioskLinkCreated(KioskLinkRead):
    """A link just made, with its token (shown this once)."""

    token: str


class KioskLinkRevoke(Schema):
    """The kiosk link to revoke."""

    sysno: Sysno
