"""``python -m bench.profiled_bot``: the bot (``python -m bot``) under cProfile, for
``bench/load.py --restart --profile-restart FILE``: SIGUSR1 writes the profile so far to
``$LOAD_PROFILE`` and stops profiling (the bot goes on). It times on the wall clock:
reading a CPU clock at every call would slow the bot far more (a busy machine stretches
every figure alike, so their shares still tell where the time goes)."""

from __future__ import annotations

import cProfile
import os
import signal
import sys
from types import FrameType

from bot.__main__ import main

profile = cProfile.Profile()


def _write(signum: int, frame: FrameType | None) -> None:
    profile.disable()
    profile.dump_stats(os.environ["LOAD_PROFILE"])


if __name__ == "__main__":
    signal.signal(signal.SIGUSR1, _write)
    profile.enable()
    sys.exit(main())
