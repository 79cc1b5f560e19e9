"""A tiny drawing model (polygons, lines, circles and text, y downwards), rendered to SVG text
or onto a ReportLab canvas: the board diagrams, the template and the PCB's schematic."""

from hardware.generate import SVG_HEAD


def fmt(value):
    """A number for the output: 2 decimals at most, no '-0'."""
    text = "%.2f" % value
    text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Drawing:
    """Shapes in the drawing's units, y downwards: polygons, lines, circles and text."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.items = []

    def polygon(self, points, stroke="#000000", fill=None, width=1.0, dash=None, closed=True,
                opacity=1.0):
        self.items.append(("poly", points, stroke, fill, width, dash, closed, opacity))

    def line(self, x1, y1, x2, y2, stroke="#000000", width=1.0, dash=None):
        self.polygon([(x1, y1), (x2, y2)], stroke, None, width, dash, False)

    def circle(self, cx, cy, r, stroke="#000000", fill=None, width=1.0, dash=None):
        self.items.append(("circle", cx, cy, r, stroke, fill, width, dash))

    def text(self, x, y, text, size, anchor="start", bold=False, fill="#000000", halo=None):
        """`y` is the baseline; anchor start, middle or end; `halo`: a colour drawn round the
        letters (SVG only) so a line behind the text does not cross it."""
        self.items.append(("text", x, y, text, size, anchor, bold, fill, halo))

    # --- SVG ---

    def svg(self, unit="", title=""):
        w, h = fmt(self.width), fmt(self.height)
        out = [SVG_HEAD,
               '<svg xmlns="http://www.w3.org/2000/svg" width="%s%s" height="%s%s" '
               'viewBox="0 0 %s %s" font-family="Helvetica, Arial, sans-serif">'
               % (w, unit, h, unit, w, h)]
        if title:
            out.append("<title>%s</title>" % esc(title))
        out.append('<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>' % (w, h))
        for item in self.items:
            out.append(_svg_item(item))
        out.append("</svg>")
        return "\n".join(out) + "\n"

    # --- PDF (ReportLab canvas, units converted by `scale`, the page's height `page_h`) ---

    def pdf(self, canvas, scale, page_h, dx=0.0, dy=0.0):
        """Draw onto a ReportLab canvas: drawing point (x, y) lands at PDF point
        ((x + dx) * scale, page_h - (y + dy) * scale)."""
        def pt(x, y):
            return (x + dx) * scale, page_h - (y + dy) * scale
        for item in self.items:
            kind = item[0]
            if kind == "poly":
                _, points, stroke, fill, width, dash, closed, opacity = item
                _pdf_style(canvas, stroke, fill, width * scale, dash, scale, opacity)
                path = canvas.beginPath()
                x, y = pt(*points[0])
                path.moveTo(x, y)
                for p in points[1:]:
                    x, y = pt(*p)
                    path.lineTo(x, y)
                if closed:
                    path.close()
                canvas.drawPath(path, stroke=1 if stroke else 0, fill=1 if fill else 0)
                if opacity < 1:
                    canvas.setStrokeAlpha(1)
            elif kind == "circle":
                _, cx, cy, r, stroke, fill, width, dash = item
                _pdf_style(canvas, stroke, fill, width * scale, dash, scale, 1.0)
                x, y = pt(cx, cy)
                canvas.circle(x, y, r * scale, stroke=1 if stroke else 0, fill=1 if fill else 0)
            else:
                _, x, y, text, size, anchor, bold, fill, halo = item
                canvas.setFillColor(_rgb(fill))
                canvas.setFont("Helvetica-Bold" if bold else "Helvetica", size * scale)
                px, py = pt(x, y)
                if anchor == "middle":
                    canvas.drawCentredString(px, py, text)
                elif anchor == "end":
                    canvas.drawRightString(px, py, text)
                else:
                    canvas.drawString(px, py, text)


def _svg_style(stroke, fill, width, dash):
    parts = ['fill="%s"' % (fill or "none")]
    if stroke:
        parts.append('stroke="%s" stroke-width="%s"' % (stroke, fmt(width)))
        if dash:
            parts.append('stroke-dasharray="%s"' % " ".join(fmt(d) for d in dash))
    return " ".join(parts)


def _svg_item(item):
    kind = item[0]
    if kind == "poly":
        _, points, stroke, fill, width, dash, closed, opacity = item
        coords = " ".join("%s,%s" % (fmt(x), fmt(y)) for x, y in points)
        extra = "" if opacity >= 1 else ' stroke-opacity="%s"' % fmt(opacity)
        if not closed:
            extra += ' stroke-linejoin="round" stroke-linecap="round"'
        return '<%s points="%s" %s%s/>' % ("polygon" if closed else "polyline", coords,
                                           _svg_style(stroke, fill, width, dash), extra)
    if kind == "circle":
        _, cx, cy, r, stroke, fill, width, dash = item
        return '<circle cx="%s" cy="%s" r="%s" %s/>' % (fmt(cx), fmt(cy), fmt(r),
                                                      _svg_style(stroke, fill, width, dash))
    _, x, y, text, size, anchor, bold, fill, halo = item
    attrs = 'x="%s" y="%s" font-size="%s"' % (fmt(x), fmt(y), fmt(size))
    if anchor != "start":
        attrs += ' text-anchor="%s"' % anchor
    if bold:
        attrs += ' font-weight="bold"'
    attrs += ' fill="%s"' % fill
    if halo:
        attrs += (' stroke="%s" stroke-width="%s" paint-order="stroke" stroke-linejoin="round"'
                  % (halo, fmt(size * 0.25)))
    return "<text %s>%s</text>" % (attrs, esc(text))


def _rgb(colour):
    from reportlab.lib.colors import Color
    return Color(int(colour[1:3], 16) / 255.0, int(colour[3:5], 16) / 255.0,
                 int(colour[5:7], 16) / 255.0)


def _pdf_style(canvas, stroke, fill, width, dash, scale, opacity):
    if stroke:
        canvas.setStrokeColor(_rgb(stroke))
        canvas.setLineWidth(width)
        if opacity < 1:
            canvas.setStrokeAlpha(opacity)
    if fill:
        canvas.setFillColor(_rgb(fill))
    if dash:
        canvas.setDash([d * scale for d in dash], 0)
    else:
        canvas.setDash([], 0)
    canvas.setLineJoin(1)
    canvas.setLineCap(1)
