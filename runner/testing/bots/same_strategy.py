"""One strategy for same_argv (the 2016 protocol) and same_tlv (the tlv protocol), which the
tests copy this beside: on each of the first 12 ticks a glider, at a spot that depends on the
tick and the seat, seat 1's flying right, seat 2's left, so that they meet. (x, y) cells."""

GLIDER = [(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)]


def cells(tick, seat, width, height):
    if tick >= 12:
        return []
    column, row = tick % 3, tick // 3
    y = 2 + 6 * row
    if seat == 1:
        return [(2 + 6 * column + dx, y + dy) for dx, dy in GLIDER]
    return [(width - 3 - 6 * column - dx, y + dy) for dx, dy in GLIDER]
