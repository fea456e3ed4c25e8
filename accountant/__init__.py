"""Privacy accounting: spent budgets and bounds (composition, shuffle amplification, information bounds)."""

__all__: list[str] = []
