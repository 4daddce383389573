"""The demo account a fresh install starts with."""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from powerportal.accounts import service as accounts
from powerportal.accounts.models import Customer
from powerportal.core.context import AppContext
from powerportal.energy.models import TariffPlan, TariffVersion
from powerportal.gateways import service as gateways
from powerportal.gateways.models import Gateway
from powerportal.load_ident import policy as load_policy
from powerportal.mqtt.transport import BrokerAddress
from powerportal.projects.models import Building, Project
from powerportal.simulator import Behaviour, Profile, SimDevice, SimGateway, Simulator

log = logging.getLogger("powerportal.demo")

DEMO_MOBILE = "13800000000"
DEMO_PASSWORD = "demo123456"  # noqa: S105 - published demo login
DEMO_NAME = "演示用户"
DEVICES_PER_GATEWAY = 12


@dataclass(frozen=True)
class DemoSite:
    """A demo project and its buildings."""

    name: str
    address: str
    longitude: float
    latitude: float
    buildings: tuple[str, ...]


@dataclass(frozen=True)
class DemoGateway:
    """A demo gateway: where it hangs and what load its circuits carry."""

    sn: str
    name: str
    site: int
    building: int
    profile: Profile


DEMO_SITES = (
    DemoSite(
        "阳光实验学校",
        "广东省深圳市南山区学府路 1 号",
        113.9305,
        22.5333,
        ("1号宿舍楼", "2号宿舍楼", "教学楼"),
    ),
    DemoSite("科创园办公楼", "广东省深圳市南山区科技园中区 8 号", 113.9537, 22.5405, ("A座", "B座")),
)
DEMO_GATEWAYS = (
    DemoGateway("DEMO-GW-0001", "1号宿舍楼配电箱", 0, 0, "dorm"),
    DemoGateway("DEMO-GW-0002", "2号宿舍楼配电箱", 0, 1, "dorm"),
    DemoGateway("DEMO-GW-0003", "教学楼配电房", 0, 2, "office"),
    DemoGateway("DEMO-GW-0004", "A座低压配电柜", 1, 0, "office"),
)
# Dormitory rooms whose occupants switch appliances on (负荷识别 replays real switch-ons of them),
# forbidden ones among them; with the chance per room and tick, a few a minute across the rooms.
DEMO_APPLIANCES = {
    ("DEMO-GW-0001", "2"): ("电水壶", "笔记本电脑", "显示器", "照明"),
    ("DEMO-GW-0001", "3"): ("电热器/取暖器", "笔记本电脑", "电视"),
    ("DEMO-GW-0001", "4"): ("电熨斗", "微波炉", "笔记本电脑", "照明"),
    ("DEMO-GW-0002", "2"): ("电水壶", "冰箱", "电视"),
    ("DEMO-GW-0002", "5"): ("电磁炉", "笔记本电脑", "显示器"),
}
DEMO_LOAD_CHANCE = 0.03
OFFICE_CIRCUITS = (
    "照明回路",
    "空调回路",
    "插座回路",
    "电梯",
    "新风机组",
    "机房UPS",
    "饮水机",
    "会议室",
    "茶水间",
    "充电桩",
    "消防泵",
)


def _slots(*spans: tuple[float, float, int], rest: int) -> str:
    """48 half-hour period digits: each span (from hour, to hour, period), ``rest`` elsewhere."""
    slots = [rest] * 48
    for start, end, period in spans:
        for i in range(int(start * 2), int(end * 2)):
            slots[i] = period
    return "".join(map(str, slots))


# 广东省（珠三角五市）一般工商业分时电价的形状（示意价，元/kWh）：峰 10–12、14–19 时，谷 0–8 时，
# 其余为平；7–9 月的 11–12、15–17 时为尖峰；春节假期全天按平段、午间 11–13 时为深谷。
SUMMER = _slots((0, 8, 3), (10, 11, 1), (11, 12, 0), (14, 15, 1), (15, 17, 0), (17, 19, 1), rest=2)
OTHER = _slots((0, 8, 3), (10, 12, 1), (14, 19, 1), rest=2)
DEMO_TARIFF_SEASONS = [
    {"name": "夏季（7–9月）", "months": [7, 8, 9], "slots": SUMMER},
    {"name": "其他月份", "months": [1, 2, 3, 4, 5, 6, 10, 11, 12], "slots": OTHER},
]
DEMO_TARIFF_PRICES = {"sharp": 1.3682, "peak": 1.1402, "flat": 0.6743, "valley": 0.2698, "deep": 0.1619}


async def seed_tariff(session: AsyncSession, customer_sysno: int) -> None:
    """The demo customer's default plan: a Chinese province's commercial time-of-use shape."""
    plan = TariffPlan(customer_sysno=customer_sysno, name="广东一般工商业分时电价（示意）", is_default=True)
    session.add(plan)
    await session.flush()
    session.add(
        TariffVersion(
            plan_sysno=plan.sysno,
            effective_date=date(2024, 1, 1),
            prices=DEMO_TARIFF_PRICES,
            seasons=DEMO_TARIFF_SEASONS,
            holidays={
                "dates": ["2027-02-06", "2027-02-07", "2027-02-08", "2027-02-09", "2027-02-10"],
                "slots": _slots((11, 13, 4), rest=2),
            },
        )
    )


async def seed(ctx: AppContext) -> Customer:
    """Create the demo account once: an ordinary customer, never a brand administrator.

    Its password is printed for anyone to use, so it must not issue login links for other customers
    or confirm their recharges; one seeded as an administrator by an older release is demoted.
    """
    async with ctx.sessions() as session:
        customer = await session.scalar(select(Customer).where(Customer.mobile == DEMO_MOBILE))
        if customer is not None and customer.is_brand_admin:
            customer.is_brand_admin = False
            await session.commit()
        if customer is None:
            customer = await accounts.create_customer(
                session=session,
                ctx=ctx,
                mobile=DEMO_MOBILE,
                password=DEMO_PASSWORD,
                name=DEMO_NAME,
            )
            customer.email = "demo@example.com"
            customer.screen_title = "智慧用电演示大屏"
            customer.category_name1 = "演示客户"
            customer.category_name2 = "学校"
            await seed_tariff(session, customer.sysno)
            await session.commit()
            log.info("seeded demo account %s", DEMO_MOBILE)
        return customer


async def seed_sites(ctx: AppContext, customer: Customer, path: Path | None = None) -> list[tuple[str, str]]:
    """Create the demo projects, buildings and gateways once; return each gateway's serial number and secret.

    The secrets are kept in ``path`` (``<data_dir>/demo-gateways.json``) for the simulator; a gateway whose
    secret is missing there gets a new one.
    """
    path = path or ctx.settings.demo_gateways_file
    known: dict[str, str] = {}
    if path.exists():
        known = {item["sn"]: item["secret"] for item in json.loads(path.read_text(encoding="utf-8"))}
    credentials: list[tuple[str, str]] = []
    async with ctx.sessions() as session:
        buildings: list[list[Building]] = []
        projects: list[Project] = []
        for site in DEMO_SITES:
            project = await session.scalar(
                select(Project).where(Project.customer_sysno == customer.sysno, Project.name == site.name)
            )
            if project is None:
                project = Project(
                    customer_sysno=customer.sysno,
                    name=site.name,
                    address=site.address,
                    longitude=site.longitude,
                    latitude=site.latitude,
                    contact_name=DEMO_NAME,
                    contact_phone=DEMO_MOBILE,
                )
                session.add(project)
                await session.flush()
            projects.append(project)
            rows = []
            for name in site.buildings:
                building = await session.scalar(
                    select(Building).where(Building.project_sysno == project.sysno, Building.name == name)
                )
                if building is None:
                    building = Building(project_sysno=project.sysno, name=name)
                    session.add(building)
                    await session.flush()
                rows.append(building)
            buildings.append(rows)
        for demo in DEMO_GATEWAYS:
            secret = known.get(demo.sn) or secrets.token_urlsafe(24)
            gateway = await session.scalar(select(Gateway).where(Gateway.sn == demo.sn))
            if gateway is None:
                await gateways.create_gateway(
                    session=session,
                    ctx=ctx,
                    project_sysno=projects[demo.site].sysno,
                    building_sysno=buildings[demo.site][demo.building].sysno,
                    sn=demo.sn,
                    name=demo.name,
                    secret=secret,
                )
            elif demo.sn not in known or not await ctx.passwords.verify(gateway.secret_hash, secret):
                gateway.secret_hash = await ctx.passwords.hash(secret)
            credentials.append((demo.sn, secret))
        # 负荷识别: the school alarms on forbidden appliances; 1号宿舍楼 also trips their breakers.
        await load_policy.seed_demo(
            session, project_sysno=projects[0].sysno, tripping_building_sysno=buildings[0][0].sysno
        )
        await session.commit()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([{"sn": sn, "secret": secret} for sn, secret in credentials], indent=2))
    path.chmod(0o600)
    return credentials


def demo_fleet(credentials: list[tuple[str, str]]) -> list[SimGateway]:
    """The demo gateways with twelve named breakers each: a three-phase incomer and eleven circuits."""
    secrets_by_sn = dict(credentials)
    fleet = []
    for index, demo in enumerate(DEMO_GATEWAYS):
        if demo.sn not in secrets_by_sn:
            continue
        devices = [
            SimDevice(
                device_id="1",
                name="总进线",
                phases=3,
                rated_current=160.0,
                profile=demo.profile,
                scale=0.45,
                energy=30_000.0 + 5_000 * index,
                incomer=True,
            )
        ]
        for n in range(2, DEVICES_PER_GATEWAY + 1):
            if demo.profile == "dorm":
                name = f"{(n - 2) // 4 + 1}{(n - 2) % 4 + 1:02d}宿舍"
            else:
                name = OFFICE_CIRCUITS[(n - 2) % len(OFFICE_CIRCUITS)]
            devices.append(
                SimDevice(
                    device_id=str(n),
                    name=name,
                    rated_current=32.0 if demo.profile == "dorm" else 40.0,
                    profile=demo.profile,
                    scale=0.35 + 0.04 * (n % 7),
                    energy=800.0 + 97 * n + 400 * index,
                )
            )
        for device in devices:
            device.appliances = DEMO_APPLIANCES.get((demo.sn, device.device_id), ())
        fleet.append(SimGateway(sn=demo.sn, secret=secrets_by_sn[demo.sn], devices=devices))
    return fleet


def start_simulator(
    fleet: list[SimGateway], address: BrokerAddress, *, interval: float, load_waveform: bool = False
) -> Simulator:
    """Feed the demo gateways from simulated breakers (a rare fault, a rare offline spell, appliances)."""
    simulator = Simulator(
        fleet,
        address,
        interval=interval,
        behaviour=Behaviour(
            fault_chance=0.0005,
            offline_chance=0.0005,
            offline_seconds=(30.0, 120.0),
            load_chance=DEMO_LOAD_CHANCE,
            load_waveform=load_waveform,
        ),
    )
    simulator.start()
    return simulator
