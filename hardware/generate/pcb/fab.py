"""What a fab needs, from the finished board: Gerbers and Excellon drill files plotted by
pcbnew, a zip of them, and the BOM and placement (CPL) files of the parts it assembles, in
JLCPCB's columns. Every file comes out the same for the same board: the dates KiCad writes
are taken out, the zip's entries carry a fixed time.

Coordinates in all of them start at the board's bottom left corner (KiCad's auxiliary
origin), x to the right, y toward row I.
"""

import csv
import io
import re
import zipfile
from pathlib import Path

import pcbnew

NAME = "iago-board"
# (KiCad layer, file suffix, what a fab calls it), plotted with Protel extensions.
LAYERS = (
    (pcbnew.F_Cu, "F_Cu", "top copper"),
    (pcbnew.B_Cu, "B_Cu", "bottom copper"),
    (pcbnew.F_Mask, "F_Mask", "top solder mask"),
    (pcbnew.B_Mask, "B_Mask", "bottom solder mask"),
    (pcbnew.F_Paste, "F_Paste", "top paste (stencil)"),
    (pcbnew.F_SilkS, "F_Silkscreen", "top silkscreen"),
    (pcbnew.B_SilkS, "B_Silkscreen", "bottom silkscreen"),
    (pcbnew.Edge_Cuts, "Edge_Cuts", "outline"),
)
ZIP_TIME = (2020, 1, 1, 0, 0, 0)


def plot(board, folder):
    """Plot the Gerbers and drill files of `board` into `folder`; returns their names."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    controller = pcbnew.PLOT_CONTROLLER(board)
    options = controller.GetPlotOptions()
    options.SetOutputDirectory(str(folder))
    options.SetPlotFrameRef(False)
    options.SetPlotValue(False)
    options.SetPlotReference(True)
    options.SetPlotInvisibleText(False)
    options.SetSketchPadsOnFabLayers(False)
    options.SetUseGerberProtelExtensions(True)
    options.SetUseGerberX2format(True)
    options.SetIncludeGerberNetlistInfo(False)
    options.SetCreateGerberJobFile(False)
    options.SetUseAuxOrigin(True)
    options.SetSubtractMaskFromSilk(True)
    options.SetExcludeEdgeLayer(True)
    options.SetScale(1)
    options.SetMirror(False)
    options.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    names = []
    for layer, suffix, _ in LAYERS:
        controller.SetLayer(layer)
        controller.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, suffix)
        controller.PlotLayer()
        names.append(Path(controller.GetPlotFileName()).name)
    controller.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), False)
    drill.SetFormat(True)
    drill.CreateDrillandMapFilesSet(str(folder), True, False)
    names += sorted(p.name for p in folder.glob("*.drl"))
    for name in names:
        path = folder / name
        path.write_bytes(_undated(path.read_bytes()))
    return names


def _undated(data):
    """A Gerber or drill file without the date and time of the plot in it."""
    text = data.decode("ascii")
    text = re.sub(r"%TF\.CreationDate,[^*]*\*%\n", "", text)
    text = re.sub(r"G04 #@! TF\.CreationDate,[^*]*\*\n", "", text)
    text = re.sub(r"; #@! TF\.CreationDate,[^\n]*\n", "", text)
    text = re.sub(r"(G04 Created by KiCad \([^)]*\)) date [^*]*\*", r"\1*", text)
    text = re.sub(r"(; DRILL file \{[^}]*\}) date [^\n]*", r"\1", text)
    text = re.sub(r"(;DRILL file \{[^}]*\}) date [^\n]*", r"\1", text)
    return text.encode("ascii")


def zipped(folder, names):
    """The files `names` of `folder` in one zip, entries in name order with a fixed time."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(names):
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, (Path(folder) / name).read_bytes())
    return buffer.getvalue()


def assembly(board, components):
    """The parts the fab places: its BOM (JLCPCB's Comment, Designator, Footprint, LCSC, with
    the maker and part number it buys a globally sourced part by), its placement file (CPL:
    Designator, Mid X, Mid Y, Layer, Rotation) corrected to its library's orientation and to
    the body's middle (jlc.py), and the same placements as KiCad gives them, for other fabs.
    Returns the csv text of each."""
    from . import jlc
    aux = board.GetDesignSettings().GetAuxOrigin()
    placed = [c for c in components if c.part.placed_by_fab]
    groups = {}
    for comp in placed:
        part = comp.part
        groups.setdefault((part.value, part.footprint, part.lcsc, part.manufacturer, part.mpn),
                          []).append(comp.ref)
    bom = io.StringIO()
    writer = csv.writer(bom, lineterminator="\n")
    writer.writerow(["Comment", "Designator", "Footprint", "LCSC", "Manufacturer",
                     "Manufacturer Part", "Quantity"])
    for (value, footprint, lcsc, maker, mpn), refs in sorted(groups.items(),
                                                              key=lambda g: _ref_key(g[1][0])):
        refs.sort(key=_ref_key)
        writer.writerow([value, ",".join(refs), footprint.split(":", 1)[1], lcsc, maker, mpn,
                         len(refs)])
    footprints = {fp.GetReference(): fp for fp in board.GetFootprints()}
    rows = {"fab": [], "kicad": []}
    for comp in sorted(placed, key=lambda c: _ref_key(c.ref)):
        fp = footprints[comp.ref]
        pos = fp.GetPosition()
        x, y = pcbnew.ToMM(pos.x - aux.x), pcbnew.ToMM(aux.y - pos.y)
        rotation = fp.GetOrientationDegrees() % 360
        rows["kicad"].append([comp.ref, "%.3f" % x, "%.3f" % y, "Top", "%g" % rotation])
        fx, fy, frot = jlc.placement(comp.part.name, x, y, rotation)
        rows["fab"].append([comp.ref, "%.3f" % fx, "%.3f" % fy, "Top", "%g" % frot])
    cpl = {}
    for kind, lines in rows.items():
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(["Designator", "Mid X", "Mid Y", "Layer", "Rotation"])
        writer.writerows(lines)
        cpl[kind] = text.getvalue()
    return bom.getvalue(), cpl["fab"], cpl["kicad"]


def _ref_key(ref):
    prefix = ref.rstrip("0123456789")
    return prefix, int(ref[len(prefix):] or 0)


def set_origin(board, params):
    """Put KiCad's auxiliary origin (the fab files' zero) at the board's bottom left corner."""
    from .frame import kpos, wxmm
    board.GetDesignSettings().SetAuxOrigin(wxmm(kpos(-params.width / 2.0,
                                                     -params.height / 2.0)))

