"""What TLS costs a controller (issue 51): ``controller tls-cost`` measures each mode over TCP and
over TLS in one run, the order alternating (ABBA), and reports TLS's figure as a ratio of TCP's.
``plan.py`` orders the cells; ``figures.py`` turns the results into the table (pure)."""
