"""Benchmarks for Yili QA: quality, speed and scaling against the naive pipeline (not tests)."""
