"""The ``powerportal`` command line."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import socket
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from powerportal.core import heap
from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.migrate import upgrade
from powerportal.mqtt.transport import BrokerAddress


def _with_context(work: Callable[[AppContext], Awaitable[int]]) -> int:
    async def _run() -> int:
        ctx = AppContext.build(Settings())
        try:
            await upgrade(ctx.engine)
            return await work(ctx)
        finally:
            await ctx.close()

    return asyncio.run(_run())


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the server."""
    import uvicorn

    from powerportal.app import create_app
    from powerportal.demo import DEMO_MOBILE, DEMO_PASSWORD

    settings = Settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    # The api role serves HTTP only; broker, ingest and scheduler run in a process of the default role.
    app = create_app(settings, background=args.role == "all")
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        access_log=False,
        loop="uvloop",
        http="httptools",
        # X-Forwarded-For is honoured by the app alone, and only from TRUSTED_PROXIES.
        proxy_headers=False,
        server_header=False,
    )

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            # The address once it answers: a first start migrates and seeds the demo before that.
            await super().startup(sockets)
            if not self.should_exit:
                address = f"http://{args.host}:{args.port}/"
                print(f"PowerPortal 已启动: {address}  (接口文档 /api/docs)", flush=True)
                if settings.seed_demo:
                    print(f"演示账号: {DEMO_MOBILE}  密码: {DEMO_PASSWORD}", flush=True)

    server = Server(config)
    heap.settle()
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn raises the Ctrl-C it stopped on again
        server.run()
    return 0


def cmd_gateway(args: argparse.Namespace) -> int:
    """Run the Modbus reference gateway (docs/modbus-gateway.md)."""
    from powerportal.edge.config import ConfigError, load
    from powerportal.edge.gateway import EdgeGateway

    try:
        config = load(Path(args.config))
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(EdgeGateway(config).run())
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run simulated gateways against a broker."""
    from powerportal.simulator import Behaviour, Simulator, make_fleet
    from powerportal.telemetry.runtime import announced_address

    settings = Settings()
    path = Path(args.credentials) if args.credentials else settings.demo_gateways_file
    credentials = _load_credentials(path)
    if len(credentials) < args.gateways:
        missing = args.gateways - len(credentials)

        async def register(ctx: AppContext) -> int:
            credentials.extend(await _register_sim_gateways(ctx, mobile=args.mobile, count=missing))
            return 0

        if _with_context(register) != 0:
            return 1
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps([{"sn": sn, "secret": secret} for sn, secret in credentials], indent=2))
        path.chmod(0o600)
        print(f"已注册 {missing} 个模拟网关，密钥保存在 {path}")
    if args.url:
        address = BrokerAddress.from_url(args.url)
    elif settings.mqtt_url:
        external = BrokerAddress.from_url(settings.mqtt_url)
        address = BrokerAddress(host=external.host, port=external.port)
    else:
        address = announced_address(settings.broker_file) or BrokerAddress(
            host="127.0.0.1", port=settings.mqtt_port
        )
    fleet = make_fleet(credentials[: args.gateways], args.devices, seed=args.seed)
    behaviour = Behaviour(rpc=args.rpc, fault_chance=args.faults, offline_chance=args.offline)
    simulator = Simulator(fleet, address, interval=args.interval, behaviour=behaviour, seed=args.seed)
    print(
        f"模拟 {len(fleet)} 个网关 × {args.devices} 个设备，每 {args.interval:g} 秒上报一次，"
        f"连接 {address}（Ctrl+C 停止）",
        flush=True,
    )
    try:
        asyncio.run(simulator.run(args.duration))
    except KeyboardInterrupt:
        pass
    print(f"已发送 {simulator.stats.messages} 条消息、{simulator.stats.readings} 条读数")
    return 0


def _load_credentials(path: Path) -> list[tuple[str, str]]:
    if not path.exists():
        return []
    return [(item["sn"], item["secret"]) for item in json.loads(path.read_text(encoding="utf-8"))]


async def _register_sim_gateways(ctx: AppContext, *, mobile: str, count: int) -> list[tuple[str, str]]:
    """Register ``count`` more simulated gateways in the account's project 模拟项目."""
    import secrets

    from sqlalchemy import func, select

    from powerportal.accounts import service as accounts
    from powerportal.gateways import broker_accounts
    from powerportal.gateways import service as gateways
    from powerportal.gateways.models import Gateway
    from powerportal.projects.models import Project

    async with ctx.sessions() as session:
        customer = await accounts.get_by_mobile(session=session, mobile=mobile)
        if customer is None:
            raise SystemExit(f"账号 {mobile} 不存在（演示账号由 POWERPORTAL_SEED_DEMO=1 的服务创建）")
        project = await session.scalar(
            select(Project).where(Project.customer_sysno == customer.sysno, Project.name == "模拟项目")
        )
        if project is None:
            project = Project(customer_sysno=customer.sysno, name="模拟项目")
            session.add(project)
            await session.flush()
        start = int(await session.scalar(select(func.count()).select_from(Gateway)) or 0)
        created: list[tuple[str, str]] = []
        number = start
        while len(created) < count:
            number += 1
            sn = f"SIM-GW-{number:05d}"
            if await gateways.sn_taken(session=session, sn=sn):
                continue
            secret = secrets.token_urlsafe(24)
            await gateways.create_gateway(
                session=session,
                ctx=ctx,
                project_sysno=project.sysno,
                sn=sn,
                name=f"模拟网关{number}",
                secret=secret,
            )
            created.append((sn, secret))
            # On a Mosquitto with the dynamic security plugin the simulated gateways need accounts too.
            await broker_accounts.issued(settings=ctx.settings, sn=sn, secret=secret)
        await session.commit()
    return created


def cmd_migrate(_args: argparse.Namespace) -> int:
    """Apply migrations."""

    async def work(_ctx: AppContext) -> int:
        print("数据库已迁移到最新版本")
        return 0

    return _with_context(work)


def cmd_create_customer(args: argparse.Namespace) -> int:
    """Create an account."""
    from powerportal.accounts import service as accounts

    async def work(ctx: AppContext) -> int:
        async with ctx.sessions() as session:
            if await accounts.get_by_mobile(session=session, mobile=args.mobile):
                print(f"账号 {args.mobile} 已存在", file=sys.stderr)
                return 1
            customer = await accounts.create_customer(
                session=session,
                ctx=ctx,
                mobile=args.mobile,
                password=args.password,
                name=args.name or f"用户{args.mobile[-4:]}",
                is_brand_admin=args.brand_admin,
            )
            await session.commit()
            print(f"已创建账号 {customer.mobile}（sysno={customer.sysno}）")
        return 0

    return _with_context(work)


def cmd_login_link(args: argparse.Namespace) -> int:
    """Print a passwordless login link."""
    from powerportal.accounts import service as accounts

    async def work(ctx: AppContext) -> int:
        async with ctx.sessions() as session:
            customer = await accounts.get_by_mobile(session=session, mobile=args.mobile)
            if customer is None:
                print(f"账号 {args.mobile} 不存在", file=sys.stderr)
                return 1
            param = accounts.create_login_link(settings=ctx.settings, customer=customer)
            print(f"{args.base_url.rstrip('/')}/auth-redirect?param={param}")
            print(f"（{ctx.settings.login_link_max_age_ms // 1000} 秒内有效，仅可使用一次）", file=sys.stderr)
        return 0

    return _with_context(work)


def cmd_sms_outbox(args: argparse.Namespace) -> int:
    """Print the latest SMS sent to a number."""
    from powerportal.sms import service as sms

    async def work(ctx: AppContext) -> int:
        async with ctx.sessions() as session:
            message = await sms.peek_code(ctx=ctx, session=session, mobile=args.mobile)
            if message is None:
                print(f"没有发给 {args.mobile} 的短信", file=sys.stderr)
                return 1
            print(message.content)
        return 0

    return _with_context(work)


def cmd_openapi(args: argparse.Namespace) -> int:
    """Write the OpenAPI document."""
    from powerportal.app import create_app

    document = create_app(Settings()).openapi()
    text = json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
    return 0


def cmd_load_ident_train(args: argparse.Namespace) -> int:
    """Rebuild the load-identification model from the shared appliance data."""
    from powerportal.load_ident import train
    from powerportal.load_ident.model import MODEL_DIR

    data = Path(args.data)
    if not (data / "tracebase_events.npz").is_file():
        print(f"找不到训练数据：{data / 'tracebase_events.npz'}", file=sys.stderr)
        return 2
    summary = train.train(data, Path(args.out) if args.out else MODEL_DIR)
    print(json.dumps(summary, ensure_ascii=False, indent=1))
    return 0


def cmd_load_ident_classify(args: argparse.Namespace) -> int:
    """Identify the appliance of each load event in a JSON-lines file."""
    from powerportal.load_ident import service

    with contextlib.ExitStack() as stack:
        if args.file == "-":
            lines = sys.stdin
        else:
            lines = stack.enter_context(Path(args.file).open(encoding="utf-8", errors="replace"))
        for answer in service.classify_lines(line.rstrip("\n") for line in lines):
            print(service.dumps(answer), flush=True)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command."""
    parser = argparse.ArgumentParser(prog="powerportal", description="PowerPortal 智慧用电客户平台")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="启动服务")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--role",
        choices=["all", "api"],
        default="all",
        help="all: 接口、MQTT、数据接入与定时任务；api: 仅接口（横向扩展时使用）",
    )
    serve.set_defaults(func=cmd_serve)

    sub.add_parser("migrate", help="迁移数据库").set_defaults(func=cmd_migrate)

    gateway = sub.add_parser("gateway", help="Modbus 网关：轮询 Modbus 断路器，按网关协议上报")
    gateway.add_argument("--config", required=True, help="配置文件（TOML，见 docs/modbus-gateway.md）")
    gateway.set_defaults(func=cmd_gateway)

    simulate = sub.add_parser("simulate", help="模拟网关（真实 MQTT 连接）")
    simulate.add_argument("--gateways", type=int, default=4)
    simulate.add_argument("--devices", type=int, default=12, help="每个网关的设备数")
    simulate.add_argument("--interval", type=float, default=5.0, help="上报周期（秒）")
    simulate.add_argument("--url", help="消息服务器，如 mqtt://127.0.0.1:1884（默认取服务启动时公布的端口）")
    simulate.add_argument(
        "--credentials", default=None, help="网关序列号与密钥文件（默认 <数据目录>/demo-gateways.json）"
    )
    simulate.add_argument("--mobile", default="13800000000", help="不足时在该账号下注册模拟网关")
    simulate.add_argument(
        "--rpc", choices=["answer", "refuse", "silent"], default="answer", help="如何应答命令"
    )
    simulate.add_argument("--faults", type=float, default=0.002, help="每个设备每周期出故障的概率")
    simulate.add_argument("--offline", type=float, default=0.0, help="每个网关每周期掉线的概率")
    simulate.add_argument("--duration", type=float, help="运行秒数（默认一直运行）")
    simulate.add_argument("--seed", type=int, default=1)
    simulate.set_defaults(func=cmd_simulate)

    create = sub.add_parser("create-customer", help="创建账号")
    create.add_argument("--mobile", required=True)
    create.add_argument("--password", required=True)
    create.add_argument("--name")
    create.add_argument("--brand-admin", action="store_true", help="品牌管理员（可签发免密登录链接）")
    create.set_defaults(func=cmd_create_customer)

    link = sub.add_parser("login-link", help="生成免密登录链接")
    link.add_argument("--mobile", required=True)
    link.add_argument("--base-url", default="http://127.0.0.1:8000")
    link.set_defaults(func=cmd_login_link)

    outbox = sub.add_parser("sms-outbox", help="查看发给某号码的最新短信")
    outbox.add_argument("--mobile", required=True)
    outbox.set_defaults(func=cmd_sms_outbox)

    openapi = sub.add_parser("openapi", help="导出 OpenAPI 文档")
    openapi.add_argument("output", nargs="?", default="-")
    openapi.set_defaults(func=cmd_openapi)

    load_ident = sub.add_parser("load-ident", help="负荷识别").add_subparsers(dest="action", required=True)
    load_train = load_ident.add_parser("train", help="用共享数据重新训练负荷识别模型")
    load_train.add_argument("--data", default="../shared/datasets/load-ident", help="数据目录")
    load_train.add_argument("--out", help="模型输出目录（默认随程序包发布的模型）")
    load_train.set_defaults(func=cmd_load_ident_train)
    load_classify = load_ident.add_parser("classify", help="识别 JSON Lines 文件中的负荷事件")
    load_classify.add_argument("file", help="每行一个负荷事件；- 为标准输入")
    load_classify.set_defaults(func=cmd_load_ident_classify)
    return parser


def main(argv: list[str] | None = None) -> None:
    """Entry point."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    sys.exit(args.func(args))
