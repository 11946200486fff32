"""The schedule database: offline regeneration (``twill regen``), drift checks, and stored schedules
applied when Triton compiles (``use``)."""
from twill.store.hook import use

__all__ = ["use"]
