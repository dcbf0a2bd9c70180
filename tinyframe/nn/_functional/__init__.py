"""The parts of ``tinyframe.nn.functional`` kept in files of their own, one concept a file."""
