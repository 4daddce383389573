"""Wire shapes of shares (共享) and project transfers (项目转移)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from powerportal.core.schemas import MAX_SYSNO, SYSNO_ITEMS, Mobile, PageQuery, Schema, Sysno, list_rules

DATE = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
MAX_BUILDINGS = 200
ShareState = Literal["pending", "accepted", "declined", "revoked", "left", "ended", "expired"]
TransferState = Literal["pending", "accepted", "declined", "cancelled", "expired"]


class ShareCreate(Schema):
    """Invite an account (by mobile number) to a project: 1 view only, 2 view and control."""

    project_sysno: Sysno
    mobile: Mobile
    permission: Literal[1, 2] = Field(default=1, title="共享权限")
    # Only these buildings (empty or absent: the whole project).
    building_sysnos: list[int] | None = Field(
        default=None, max_length=MAX_BUILDINGS, json_schema_extra=list_rules(SYSNO_ITEMS), title="楼栋范围"
    )
    # The last day of access, in the project's time zone (absent: until revoked).
    expire_date: str | None = Field(default=None, max_length=10, pattern=DATE, title="到期日期")
    remark: str | None = Field(default=None, max_length=255)

    @field_validator("building_sysnos")
    @classmethod
    def _buildings(cls, value: list[int] | None) -> list[int] | None:
        if value is None:
            return None
        if any(v < 1 or v > MAX_SYSNO for v in value):
            raise ValueError("含无效楼栋编号")
        return sorted(set(value)) or None


class ShareAction(Schema):
    """One share to act on."""

    sysno: Sysno


class ShareQuery(PageQuery):
    """Filters of the share list: ``direction`` given (I shared) or received (shared with me).

    ``orderBy`` is create_time (default).
    """

    direction: Literal["given", "received"] | None = Field(default=None, title="方向")
    state: ShareState | None = None
    project_sysno: Sysno | None = None
    permission: Literal[1, 2] | None = Field(default=None, title="共享权限")
    # The other account's name or mobile number, or the project's name.
    keyword: str | None = Field(default=None, max_length=64)


class ShareRead(Schema):
    """One share as the list shows it, from the caller's side."""

    sysno: int
    direction: Literal["given", "received"]
    project_sysno: int
    project_name: str
    owner_name: str
    owner_mobile: str
    grantee_sysno: int
    grantee_name: str
    grantee_mobile: str
    permission: int
    permission_name: str
    building_sysnos: list[int] | None
    building_names: list[str]
    expire_time: str | None
    state: ShareState
    state_name: str
    invite_expire_time: str
    remark: str | None
    create_time: str
    respond_time: str | None
    end_time: str | None


class TransferCreate(Schema):
    """Offer a project to another account: the caller's password (and SMS code where the brand has them)."""

    project_sysno: Sysno
    mobile: Mobile
    password: str = Field(min_length=1, max_length=64)
    validate_code: str | None = Field(default=None, max_length=8)
    # Whether the project's shares go on under the new owner (else they end on acceptance).
    keep_shares: bool = Field(default=False, title="保留共享")
    remark: str | None = Field(default=None, max_length=255)


class TransferSms(Schema):
    """Send the code confirming a transfer to the caller's own number."""

    mobile: Mobile


class TransferQuery(PageQuery):
    """Filters of the transfer list: ``direction`` out (I offered) or in (offered to me)."""

    direction: Literal["in", "out"] | None = Field(default=None, title="方向")
    state: TransferState | None = None
    keyword: str | None = Field(default=None, max_length=64)


class TransferRead(Schema):
    """One transfer as the list shows it, from the caller's side."""

    sysno: int
    direction: Literal["in", "out"]
    project_sysno: int
    project_name: str
    from_name: str
    from_mobile: str
    to_name: str
    to_mobile: str
    keep_shares: bool
    state: TransferState
    state_name: str
    expire_time: str
    remark: str | None
    create_time: str
    respond_time: str | None
