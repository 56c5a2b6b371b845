"""A path converter for database row ids: digits up to the largest 64-bit signed integer.

``<int:...>`` takes any number of digits, so ``/turnieje/<30 digits>/`` reached the query and the
database refused the number (a 500). A converter's ``to_python`` raising ValueError makes the
path not match: such an id gets the 404 any missing row gets."""

from __future__ import annotations

MAX_ROW_ID = 2**63 - 1  # PostgreSQL's bigint, SQLite's integer


class RowIdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ROW_ID:
            raise ValueError(value)
        return number

    def to_url(self, value: int) -> str:
        return str(value)
