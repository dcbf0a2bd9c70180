"""The op definitions, one family a file: each op's forward and backward side by side."""
