# SPDX-FileCopyrightText: 2026 the Sultan authors
# SPDX-License-Identifier: MIT
"""The saves: the record format, the two-slot store and its write policy, statistics, the NVM region."""
