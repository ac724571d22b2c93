"""Shared test configuration: the hypothesis profiles.

``ci`` (the default) keeps the whole suite fast and deterministic; set
``HYPOTHESIS_PROFILE=thorough`` to run many more examples locally.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True)
settings.register_profile("thorough", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
