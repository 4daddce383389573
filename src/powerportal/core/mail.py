"""Outgoing e-mail through the SMTP server the settings name (scheduled reports)."""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage
from pathlib import Path

from powerportal.core.config import Settings


class MailError(Exception):
    """The message was not accepted; the text says why, in Chinese."""


def configured(settings: Settings) -> bool:
    """Whether an SMTP server is set."""
    return bool(settings.smtp_host)


def send(
    settings: Settings, *, to: list[str], subject: str, body: str, attachment: tuple[Path, str] | None = None
) -> None:
    """Send one message to ``to`` with an optional file ``(path, name)``; blocking (run it in a thread)."""
    message = EmailMessage()
    message["From"] = settings.smtp_from
    message["To"] = ", ".join(to)
    message["Subject"] = subject
    message.set_content(body)
    if attachment is not None:
        path, name = attachment
        kind = "pdf" if name.endswith(".pdf") else "vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        message.add_attachment(path.read_bytes(), maintype="application", subtype=kind, filename=name)
    timeout = settings.smtp_timeout_seconds
    try:
        if settings.smtp_security == "ssl":
            client: smtplib.SMTP = smtplib.SMTP_SSL(
                settings.smtp_host, settings.smtp_port, timeout=timeout, context=ssl.create_default_context()
            )
        else:
            client = smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=timeout)
        with client:
            if settings.smtp_security == "starttls":
                client.starttls(context=ssl.create_default_context())
            if settings.smtp_user:
                client.login(settings.smtp_user, settings.smtp_password)
            client.send_message(message)
    except (OSError, smtplib.SMTPException) as exc:
        raise MailError(f"邮件发送失败：{exc.__class__.__name__}") from exc
