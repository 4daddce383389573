"""Load identification routes (issue 19; filled in as the issue is built)."""

from __future__ import annotations

from fastapi import APIRouter

routers: tuple[APIRouter, ...] = ()
