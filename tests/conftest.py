"""Hypothesis profiles: `default` for every run, `deep` by hand (HYPOTHESIS_PROFILE=deep).

No test may depend on the machine's speed (issue 12): Hypothesis' `deadline` is a clock
on every example, which a slow or busy machine fails, so it is off in every profile, and
collection refuses a test that sets one.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "deep",
    parent=settings.get_profile("default"),
    max_examples=20_000,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    timed = []
    for item in items:
        chosen = getattr(getattr(item, "obj", None), "_hypothesis_internal_use_settings", None)
        if chosen is not None and chosen.deadline is not None:
            timed.append(f"{item.nodeid} (deadline {chosen.deadline})")
    if timed:
        raise pytest.UsageError(f"Hypothesis tests with a deadline: {', '.join(timed)}")
