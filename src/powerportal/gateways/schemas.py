"""Gateway wire shapes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from powerportal.core.schemas import PageQuery, Reply, Schema, Sysno

# The serial number is the gateway's MQTT username and a topic segment: no '/', '+', '#' or spaces.
SerialNumber = Field(min_length=4, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")


class GatewayQuery(PageQuery):
    """Filters of the gateway list; ``orderBy`` is one of sysno, name, sn, create_time, last_seen, online."""

    project_sysno: Sysno | None = None
    building_sysno: Sysno | None = None
    online: Literal[0, 1] | None = None
    name: str | None = Field(default=None, max_length=64)
    sn: str | None = Field(default=None, max_length=64)


class GatewayCreate(Schema):
    """Register a gateway by the serial number on its label."""

    sn: str = SerialNumber
    name: str = Field(title="网关名称", min_length=1, max_length=64)
    project_sysno: Sysno
    building_sysno: Sysno | None = None
    remark: str | None = Field(default=None, max_length=500)


class GatewayUpdate(Schema):
    """Rename a gateway; ``remark`` and ``building_sysno`` change only when sent (null clears them)."""

    sysno: Sysno
    name: str = Field(title="网关名称", min_length=1, max_length=64)
    remark: str | None = Field(default=None, max_length=500)
    building_sysno: Sysno | None = None


class GatewayMove(Schema):
    """Move a gateway (and its devices) to another project and optionally a building of it."""

    sysno: Sysno
    project_sysno: Sysno
    building_sysno: Sysno | None = None


class GatewaySysno(Schema):
    """A call that names one gateway."""

    sysno: Sysno


class GatewayRead(Schema):
    """A gateway row."""

    sysno: int
    sn: str
    name: str
    project_sysno: int
    project_name: str
    building_sysno: int | None
    building_name: str | None
    online: int
    last_seen: str | None
    firmware: str | None
    remark: str | None
    device_count: int
    online_device_count: int
    create_time: str | None


class GatewayCreated(GatewayRead):
    """A newly registered gateway and its secret, shown this once."""

    secret: str
    mqtt_username: str


class GatewaySecret(Schema):
    """A gateway's new secret, shown this once."""

    sysno: int
    sn: str
    mqtt_username: str
    secret: str


class GatewayRefusalRead(Reply):
    """How often the platform refused (or repaired) something the gateway sent, for one reason."""

    reason: str
    reason_name: str
    count: int
    last_time: str | None
    last_detail: str | None
