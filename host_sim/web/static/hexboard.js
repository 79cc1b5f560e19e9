// The hex board as its snapshot's layout describes it (host_sim/web/ledview.py, layout_dict of the
// hex layout): what the page draws for a real board before it has reported its own, empty and
// dark. tests/test_web_serial.py keeps it equal to the firmware's tables.
export const HEX_BOARD = {"kind": "hex", "size": 9, "game": "iago", "title": "Iago", "cells": 61, "names": ["A1", "A2",
"A3", "A4", "A5", "B1", "B2", "B3", "B4", "B5", "B6", "C1", "C2", "C3", "C4", "C5", "C6", "C7",
"D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8",
"E9", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "G3", "G4", "G5", "G6", "G7", "G8", "G9",
"H4", "H5", "H6", "H7", "H8", "H9", "I5", "I6", "I7", "I8", "I9"], "side_names": {"dark": "dark",
"light": "light"}, "settings": {"rules": "A1", "penalty": "A2", "hints": "A3", "brightness": "A4",
"palette": "A5", "computer": "B1", "level": "B6"}, "demo": "E5", "corners": ["A1", "A5", "E1",
"E9", "I5", "I9"], "rows": [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3,
3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7,
8, 8, 8, 8, 8], "columns": [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5,
6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5, 6, 7, 8, 9, 3, 4, 5, 6, 7, 8, 9, 4, 5, 6, 7, 8, 9,
5, 6, 7, 8, 9], "outer": ["A1", "A2", "A3", "A4", "A5", "B1", "B6", "C1", "C7", "D1", "D8", "E1",
"E9", "F2", "F9", "G3", "G9", "H4", "H9", "I5", "I6", "I7", "I8", "I9"], "centre": "E5"};
