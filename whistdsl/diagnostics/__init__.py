"""Findings: what lint reports, with codes and positions, and its text, JSON and GitHub formats."""
