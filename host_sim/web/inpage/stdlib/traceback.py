# host_sim/web/inpage/pageboard.py reports the simulator's faults with sys.print_exception.
