"""Mosquitto's dynamic security plugin, driven through its ``$CONTROL/dynamic-security/v1`` topic.

Each gateway is a plugin client named by its serial number with a role of its own that lets it publish
on its up-link channels and subscribe under ``gateways/{sn}/``, exactly the embedded broker's ACL. The
plugin stores its own salted hash of the secret; it ends a client's connections whenever that client is
changed or deleted, which is how a reset, a move or a delete disconnects the gateway.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from typing import Any

import aiomqtt
import orjson

from powerportal.mqtt import thingsboard
from powerportal.mqtt.codec import TOPIC_ROOT, UP_CHANNELS
from powerportal.mqtt.transport import BrokerAddress, connected

CONTROL_TOPIC = "$CONTROL/dynamic-security/v1"
RESPONSE_TOPIC = f"{CONTROL_TOPIC}/response"
# Roles the platform owns start with this; a client holding one is a gateway the platform manages.
ROLE_PREFIX = "powerportal-gateway-"
# What the plugin answers when the thing asked for is already there, or already gone.
ALREADY_THERE = ("Client already exists", "Role already exists", "ACL with this topic already exists")
ALREADY_GONE = ("Client not found", "Role not found")

Command = dict[str, Any]


class DynsecError(RuntimeError):
    """The plugin could not be reached, or refused a command that had to succeed."""


def role_name(sn: str) -> str:
    """The role that holds one gateway's ACL."""
    return f"{ROLE_PREFIX}{sn}"


def gateway_role(sn: str) -> Command:
    """Create a gateway's role: publish on its up-link channels, subscribe under its prefix."""
    prefix = f"{TOPIC_ROOT}/{sn}"
    acls = [{"acltype": "publishClientSend", "topic": f"{prefix}/{c}", "allow": True} for c in UP_CHANNELS]
    acls.append({"acltype": "subscribePattern", "topic": f"{prefix}/#", "allow": True})
    return {"command": "createRole", "rolename": role_name(sn), "acls": acls + thingsboard_acls(sn)}


def thingsboard_acls(sn: str) -> list[Command]:
    """A ThingsBoard gateway's v1/… topics, on a listener whose mount_point puts them under tb/{sn}/."""
    tb = thingsboard.mount(sn, thingsboard.API_ROOT) + "#"
    return [
        {"acltype": "publishClientSend", "topic": tb, "allow": True},
        {"acltype": "subscribePattern", "topic": tb, "allow": True},
    ]


def upgrade_role(sn: str) -> list[Command]:
    """Commands that add what a role made before ThingsBoard gateways lacks (nothing if it has it)."""
    return [{"command": "addRoleACL", "rolename": role_name(sn), **acl} for acl in thingsboard_acls(sn)]


def put_gateway(sn: str, secret: str, textname: str = "") -> list[Command]:
    """Commands that leave exactly one client for this gateway, with this secret (its old logins end)."""
    return [
        gateway_role(sn),
        *upgrade_role(sn),
        {"command": "deleteClient", "username": sn},
        {
            "command": "createClient",
            "username": sn,
            "password": secret,
            "textname": textname,
            "roles": [{"rolename": role_name(sn)}],
        },
    ]


def remove_gateway(sn: str) -> list[Command]:
    """Commands that remove a gateway's client (ending its logins) and its role."""
    return [{"command": "deleteClient", "username": sn}, {"command": "deleteRole", "rolename": role_name(sn)}]


def end_logins(sn: str) -> list[Command]:
    """Commands that end a gateway's logins and keep its client (the plugin kicks a modified client)."""
    return [{"command": "modifyClient", "username": sn, "roles": [{"rolename": role_name(sn)}]}]


def list_clients() -> Command:
    """Every client with its roles."""
    return {"command": "listClients", "verbose": True, "count": -1, "offset": 0}


@dataclass(frozen=True)
class Answer:
    """The plugin's answer to one command."""

    command: str
    error: str | None
    data: Any


class Dynsec:
    """Sends command lists to the plugin as its admin and reads the answers (one connection per list)."""

    def __init__(self, address: BrokerAddress, *, timeout: float = 5.0) -> None:
        self.address = address
        self.timeout = timeout

    @classmethod
    def from_url(cls, url: str, *, timeout: float = 5.0) -> Dynsec | None:
        """The plugin's admin at ``mqtt://admin:pass@host:port``; None for an empty URL."""
        return cls(BrokerAddress.from_url(url), timeout=timeout) if url else None

    async def run(self, commands: list[Command]) -> list[Answer]:
        """Send the commands in one message; the answers, in the same order."""
        try:
            async with asyncio.timeout(self.timeout):
                return await self._run(commands)
        except (aiomqtt.MqttError, TimeoutError, OSError) as exc:
            raise DynsecError(f"Mosquitto dynamic security at {self.address} did not answer: {exc}") from exc

    async def _run(self, commands: list[Command]) -> list[Answer]:
        # Every admin reads the same response topic: this list's answers carry its tag back.
        tag = secrets.token_hex(8)
        tagged = [{**command, "correlationData": f"{tag}-{i}"} for i, command in enumerate(commands)]
        async with connected(
            aiomqtt.Client(
                self.address.host,
                self.address.port,
                username=self.address.username,
                password=self.address.password,
                identifier=f"powerportal-dynsec-{secrets.token_hex(4)}",
            )
        ) as client:
            await client.subscribe(RESPONSE_TOPIC, qos=1)
            await client.publish(CONTROL_TOPIC, orjson.dumps({"commands": tagged}), qos=1)
            async for message in client.messages:
                payload = message.payload
                if not isinstance(payload, bytes | bytearray):
                    continue
                responses = orjson.loads(payload).get("responses", [])
                if [r.get("correlationData") for r in responses] != [c["correlationData"] for c in tagged]:
                    continue  # another admin's answer
                return [
                    Answer(command=str(r.get("command", "")), error=r.get("error"), data=r.get("data"))
                    for r in responses
                ]
        raise DynsecError("the connection to Mosquitto ended before its answer")

    async def check(self, commands: list[Command]) -> list[Answer]:
        """Run the commands; any error other than "already there / already gone" raises."""
        answers = await self.run(commands)
        for answer in answers:
            if answer.error and answer.error not in ALREADY_THERE + ALREADY_GONE:
                raise DynsecError(f"Mosquitto dynamic security refused {answer.command}: {answer.error}")
        return answers

    async def gateway_clients(self) -> dict[str, list[str]]:
        """Clients the platform manages (holding their own gateway role): serial number → role names."""
        (answer,) = await self.check([list_clients()])
        found: dict[str, list[str]] = {}
        for client in (answer.data or {}).get("clients", []):
            username = str(client.get("username", ""))
            roles = [str(r.get("rolename", "")) for r in client.get("roles", [])]
            if role_name(username) in roles:
                found[username] = roles
        return found
