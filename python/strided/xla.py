"""PLACEHOLDER (owned by the XLA work): strided.xla."""
