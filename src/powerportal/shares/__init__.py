"""Project shares (共享) and project transfers (项目转移)."""
