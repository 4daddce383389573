"""Gateways reach the embedded broker over TLS on a second port, with a certificate of the operator's CA."""

from __future__ import annotations

import datetime as dt
import ipaddress
import ssl
from collections.abc import AsyncIterator
from pathlib import Path

import aiomqtt
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from sqlalchemy import func, select

from powerportal.telemetry.models import Reading
from tests.mqtt.private import free_port
from tests.telemetry.conftest import Site, start_site
from tests.telemetry.test_ingest import fresh


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def make_ca_and_server(directory: Path) -> tuple[Path, Path, Path]:
    """A CA, and a server certificate for 127.0.0.1 it signed: (ca.pem, server.pem, server.key)."""
    now = dt.datetime.now(dt.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("PowerPortal 测试 CA"))
        .issuer_name(_name("PowerPortal 测试 CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    server = (
        x509.CertificateBuilder()
        .subject_name(_name("127.0.0.1"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False
        )
        .sign(ca_key, hashes.SHA256())
    )
    paths = directory / "ca.pem", directory / "server.pem", directory / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(server.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return paths


@pytest.fixture
async def tls_site(database_url: str, tmp_path: Path) -> AsyncIterator[tuple[Site, Path]]:
    ca, cert, key = make_ca_and_server(tmp_path)
    async for s in start_site(
        database_url, "embedded", mqtt_tls_cert=str(cert), mqtt_tls_key=str(key), mqtt_tls_port=free_port()
    ):
        yield s, ca


async def test_a_gateway_connects_over_tls_with_the_operators_ca(tls_site: tuple[Site, Path]) -> None:
    site, ca = tls_site
    broker = site.runtime.broker
    assert broker is not None and broker.tls_port
    sn, secret, _ = await site.gateway()
    trusted = ssl.create_default_context(cafile=str(ca))
    async with aiomqtt.Client(
        "127.0.0.1", broker.tls_port, username=sn, password=secret, tls_context=trusted
    ) as gw:
        await gw.publish(*fresh("telemetry-single-phase", sn), qos=1)
    async with site.ctx.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Reading)) == 2
    # A client that does not trust the CA, or speaks plain MQTT to the TLS port, gets nowhere.
    for context in (ssl.create_default_context(), None):
        with pytest.raises(aiomqtt.MqttError):
            async with aiomqtt.Client(
                "127.0.0.1", broker.tls_port, username=sn, password=secret, tls_context=context, timeout=3
            ):
                pass
