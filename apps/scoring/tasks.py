"""Celery tasks of the scoring app. Tasks take ids, load rows, call one service."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="scoring.ping")
def ping(value: str) -> dict:
    """Health check: proves a message made the round trip through the broker and a worker."""
    import os

    return {"echo": value, "pid": os.getpid()}
