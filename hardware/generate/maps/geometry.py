"""Where a board map's cells are drawn: hexes pointy side up with row A at the bottom, or
squares with rank 1 at the bottom; y grows downwards, the board's box starts at (0, 0)."""

import math

from iago import hexgrid

CELLS = hexgrid.CELLS
SQRT3 = math.sqrt(3.0)


def cell_centre(cell, flats):
    """The centre of `cell`, hexes `flats` across flats, pointy side up, row A at the bottom:
    (x, y) with y growing downwards, the board's bounding box starting at (0, 0)."""
    radius = flats / SQRT3
    row = hexgrid.ROW_OF[cell]
    number = hexgrid.NUMBER_OF[cell]
    x = (number - row / 2.0 + 1.0) * flats + flats / 2.0   # E1 (the leftmost) at flats / 2
    y = radius + (8 - row) * 1.5 * radius                    # row I at the top
    return x, y


def board_size(flats):
    radius = flats / SQRT3
    return 9 * flats, 14 * radius


def hex_points(cx, cy, flats, shrink=0.0):
    radius = flats / SQRT3 - shrink
    points = []
    for k in range(6):
        angle = math.radians(90 + 60 * k)
        points.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    return points


def shape(bmap):
    """(cell names, cell count, centre(cell, flats) -> (x, y), outline(x, y, flats) -> points,
    size(flats) -> (width, height), which side is at the bottom) of the map's board: hexes, or
    squares with rank 1 at the bottom."""
    if bmap.geometry == "hex":
        return (hexgrid.cell_name, CELLS, cell_centre, hex_points, board_size,
                "row A (dark's side) at the bottom")
    from iago import squaregrid
    grid = squaregrid.grid(bmap.size)
    n = bmap.size

    def centre(cell, flats):
        return (cell % n + 0.5) * flats, (n - 1 - cell // n + 0.5) * flats

    def square(cx, cy, flats, shrink=0.0):
        h = flats / 2 - shrink
        return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]

    return (grid.cell_name, bmap.cells, centre, square, lambda flats: (n * flats, n * flats),
            "rank 1 at the bottom")
