"""The saves: the record format, the two-slot store and its write policy, statistics, the NVM region."""
