"""The build documents made from the board maps (`python -m hardware.generate.maps`): the
drawing model (drawing.py), where cells are drawn (geometry.py), the wiring diagram
(diagram.py), the wiring tables and matrix wire (wiring.py) and the 1:1 template
(template.py). The PCB's schematic draws with the same model and names the same Pico pins."""
