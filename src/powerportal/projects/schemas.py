"""Project and building wire shapes (``sysno``, ``list_child`` as the spec names them)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from powerportal.core.schemas import PageQuery, Phone, Reply, Schema, Sysno

ProjectName = Field(title="项目名称", min_length=1, max_length=64)
BuildingName = Field(title="楼栋名称", min_length=1, max_length=64)
# Ids fit a signed 64-bit column with room to spare; larger numbers are refused as input errors.


class ProjectQuery(PageQuery):
    """Filters of the project list; ``orderBy`` is one of sysno, name, create_time, update_time."""

    name: str | None = Field(default=None, max_length=64)


class ProjectFilterQuery(Schema):
    """Optional name filter of the short project lists."""

    name: str | None = Field(default=None, max_length=64)


class ProjectFields(Schema):
    """What a customer may set on a project."""

    name: str = ProjectName
    address: str | None = Field(default=None, max_length=255)
    longitude: float | None = Field(default=None, ge=-180, le=180)
    latitude: float | None = Field(default=None, ge=-90, le=90)
    contact_name: str | None = Field(default=None, max_length=64)
    contact_phone: Phone | None = None
    remark: str | None = Field(default=None, max_length=500)


class ProjectCreate(ProjectFields):
    """A new project."""


class ProjectUpdate(ProjectFields):
    """An edited project (all fields replaced)."""

    sysno: Sysno


class BuildingCreate(Schema):
    """A new building in a project."""

    project_sysno: Sysno
    name: str = BuildingName
    remark: str | None = Field(default=None, max_length=500)


class BuildingUpdate(Schema):
    """An edited building."""

    sysno: Sysno
    name: str = BuildingName
    remark: str | None = Field(default=None, max_length=500)


class BuildingRead(Reply):
    """A building as it appears in a project's ``list_child``."""

    sysno: int
    project_sysno: int
    name: str
    remark: str | None
    gateway_count: int
    create_time: str | None


class ProjectRead(Schema):
    """A project row with its buildings and equipment counts."""

    sysno: int
    name: str
    address: str | None
    longitude: float | None
    latitude: float | None
    contact_name: str | None
    contact_phone: str | None
    remark: str | None
    create_time: str | None
    update_time: str | None
    building_count: int
    gateway_count: int
    online_gateway_count: int
    device_count: int
    online_device_count: int
    list_child: list[BuildingRead]
    # Shared with the caller by another account (who owns it, by name): seen, and edited only by its owner.
    is_shared: bool
    owner_name: str
    # Whether the caller may switch the project's devices and process its alarms (owner or a control
    # share); a view-only sharee's client hides those actions (the server refuses them anyway).
    can_control: bool


class ProjectDashboardRow(Reply):
    """Online/offline counts of one project for the dashboard."""

    sysno: int
    name: str
    address: str | None
    longitude: float | None
    latitude: float | None
    gateway_count: int
    gateway_online_count: int
    gateway_offline_count: int
    device_count: int
    device_online_count: int
    device_offline_count: int


class DashboardSummary(Schema):
    """Totals over every visible project."""

    project_count: int
    gateway_count: int
    gateway_online_count: int
    gateway_offline_count: int
    device_count: int
    device_online_count: int
    device_offline_count: int


class ProjectDashboard(Schema):
    """The dashboard answer: one row per project and the totals."""

    dataSource: list[ProjectDashboardRow]  # noqa: N815
    totalCount: int  # noqa: N815
    summary: DashboardSummary


class TreeNode(Schema):
    """A node of the monitoring tree: project, building or gateway."""

    key: str
    sysno: int
    name: str
    type: Literal["project", "building", "gateway"]
    project_sysno: int
    sn: str | None = None
    online: int | None = None
    device_count: int
    online_device_count: int
    list_child: list[TreeNode]
    # A project node shared with the caller: its owner's name (None for the caller's own).
    owner_name: str | None = None
    # Whether the caller may control the node's project (every node of a project carries its value).
    can_control: bool


class ProjectOption(Schema):
    """A project as a filter option; a shared one names its owner."""

    sysno: int
    name: str
    owner_name: str | None = None
    # Whether the caller may control the project (owner or a "view and control" share).
    can_control: bool
