"""twill: provably optimal software pipelining and warp specialization for Triton loops."""
__version__ = "0.1.0"
