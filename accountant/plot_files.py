"""What every plot of the accountant shares: the file formats, the check of the target path, an Agg figure
(matplotlib's canvas used directly: no pyplot, no global backend change) and the finishing touches."""

from __future__ import annotations

from pathlib import Path

from dpcert.mechanisms.parameters import InvalidParameterError

__all__ = ["PLOT_FORMATS", "new_axes", "plot_path", "save_axes"]

PLOT_FORMATS = (".png", ".pdf", ".svg")
"""File suffixes the plots write (the format follows the suffix)."""


def plot_path(path: str | Path) -> Path:
    """``path`` as a Path ending in one of :data:`PLOT_FORMATS` whose directory exists."""
    path = Path(path)
    if path.suffix.lower() not in PLOT_FORMATS:
        raise InvalidParameterError(f"path must end in one of {', '.join(PLOT_FORMATS)}. Got {str(path)!r}")
    if not path.parent.is_dir():
        raise InvalidParameterError(f"path: directory {str(path.parent)!r} does not exist")
    return path


def new_axes():
    """A figure (8 x 5.5 inches, constrained layout) on an Agg canvas, and its one axes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 5.5), layout="constrained")
    FigureCanvasAgg(figure)
    return figure, figure.add_subplot()


def save_axes(figure, axes, path: Path, *, title: str, xlabel: str, ylabel: str) -> Path:
    """Label the axes, add the grid and legend, and write the figure to ``path`` in its suffix's format."""
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small", loc="best")
    figure.savefig(path, format=path.suffix.lower().lstrip("."), dpi=120)
    return path
