"""Melody without harmony: motifs (rhythm cell + contour) and the plan of a section's phrases.

Pure functions over `knowledge.melody` tables; the lead writer
(`compose/parts/lead.py`) puts their scale steps on the chords of a section.
"""
