"""Data dashboard routes (issue 15; filled in as the issue is built)."""

from __future__ import annotations

from fastapi import APIRouter

routers: tuple[APIRouter, ...] = ()
