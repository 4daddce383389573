"""The ``powerportal`` command line."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from powerportal.core.config import Settings
from powerportal.core.context import AppContext
from powerportal.core.migrate import upgrade


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
    if settings.is_sqlite:
        Path("data").mkdir(exist_ok=True)
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        access_log=False,
        loop="uvloop",
        http="httptools",
    )
    server = uvicorn.Server(config)
    print(f"PowerPortal 已启动: http://{args.host}:{args.port}/  (接口文档 /api/docs)", flush=True)
    if settings.seed_demo:
        print(f"演示账号: {DEMO_MOBILE}  密码: {DEMO_PASSWORD}", flush=True)
    server.run()
    return 0


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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command."""
    parser = argparse.ArgumentParser(prog="powerportal", description="PowerPortal 智慧用电客户平台")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="启动服务")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(func=cmd_serve)

    sub.add_parser("migrate", help="迁移数据库").set_defaults(func=cmd_migrate)

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
    return parser


def main(argv: list[str] | None = None) -> None:
    """Entry point."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    sys.exit(args.func(args))
