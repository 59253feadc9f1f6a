"""Tabletop bot runtime: configuration, store, tables, routing, translation."""
