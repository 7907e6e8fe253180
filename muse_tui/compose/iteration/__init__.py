"""Everything after the first compose: edits by family, takes, A/B options, scores and history.

Pure: contracts in, contracts out. The engine plans what a change reaches,
regenerates it, commits it and writes the files (`engine.editing`).
"""
