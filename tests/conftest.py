"""Settings for every suite: hypothesis must not fail a property because the machine is busy."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

# CI machines run the suites in parallel with other work: time limits per example and "input
# generation is slow" checks measure the machine, not the code under test.
settings.register_profile("guandan", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("guandan")
