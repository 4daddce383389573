"""Account wire shapes (field names are the spec's)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from powerportal.core.schemas import SPACE, Mobile, Schema
from powerportal.core.text import CONTROLS

# An address, or nothing; the classes are spelt out so that JSON Schema and Python read them alike.
_ADDRESS_PART = f"[^@{CONTROLS}{SPACE}]+"
EMAIL = rf"^$|^{_ADDRESS_PART}@{_ADDRESS_PART}\.{_ADDRESS_PART}$"
Code = Annotated[str, Field(max_length=8)]
NewPassword = Annotated[str, Field(min_length=6, max_length=32)]


class LoginByPassBody(Schema):
    """Password login; ``password`` is ``timestamp + password + timestamp``."""

    mobile: Mobile
    password: str = Field(min_length=27, max_length=100)


class LoginBySmsBody(Schema):
    """SMS-code login."""

    mobile: Mobile
    validate_code: Code


class MobileBody(Schema):
    """A call that names one phone number."""

    mobile: Mobile


class LoginLinkBody(Schema):
    """The encrypted parameter of a passwordless link."""

    param: str = Field(min_length=1, max_length=1000)


class CreateLoginLinkBody(Schema):
    """Which customer a brand administrator wants a passwordless link for."""

    mobile: Mobile


class LoginLinkRead(Schema):
    """A freshly issued passwordless link."""

    param: str
    url: str
    expires_in_ms: int


class RegisterBody(Schema):
    """Self-registration."""

    mobile: Mobile
    password: NewPassword
    validate_code: Code | None = None
    name: str | None = Field(default=None, max_length=64)


class ValidateCodeBody(Schema):
    """Check a code without using it up."""

    mobile: Mobile
    validate_code: Code


class UpdatePasswordBody(Schema):
    """Password change (code and mobile only where the brand has SMS codes)."""

    old_password: str = Field(min_length=1, max_length=64)
    new_password: NewPassword
    validate_code: Code | None = None
    mobile: Mobile | None = None


class FindPasswordBody(Schema):
    """Password recovery by SMS code."""

    mobile: Mobile
    validate_code: Code
    new_password: NewPassword


class TransformSmsBody(Schema):
    """Code for a transfer: type 1 the current account, 2 the target number."""

    mobile: Mobile
    type: Literal[1, 2]


class TransformBody(Schema):
    """Move the account to another phone number."""

    old_mobile: Mobile
    new_mobile: Mobile
    validate_code: Code | None = None
    target_validate_code: Code | None = None
    is_show_code: bool | None = None


class CustomerUpdate(Schema):
    """Editable profile fields."""

    name: str = Field(title="姓名", min_length=1, max_length=64)
    email: str | None = Field(default=None, max_length=128, pattern=EMAIL)
    remark: str | None = Field(default=None, max_length=500)
    serial_no: str | None = Field(default=None, max_length=64)


class CustomerRead(Schema):
    """The profile as the client shows it."""

    sysno: int
    account: str
    mobile: str
    name: str
    email: str | None
    remark: str | None
    serial_no: str | None
    category_name1: str | None
    category_name2: str | None
    screen_title: str | None


class LoginResult(Schema):
    """What a successful login answers."""

    token: str
    account: str
    name: str
    mobile: str
