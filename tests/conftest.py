"""Hypothesis profiles: `default` for every run, `deep` by hand (HYPOTHESIS_PROFILE=deep)."""

from __future__ import annotations

import os

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
