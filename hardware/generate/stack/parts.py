"""The printed parts (STL): a disk, as two halves glued face to face round the magnet; and the
go/no-go jig for the reed switches (jig.py).

Each half is half the disk's thickness with half the magnet's pocket in its inner face, so the
magnet ends up centred and both faces act alike; print each half in its face's colour (dark or
light, and red for the captive face) and no support or pause is needed.
"""

from hardware.generate import NOTE

SEGMENTS = 96                # facets round the disk's edge


def disk_half(design):
    """The half disk as a manifold3d solid: its outer face on z = 0, the pocket in the top."""
    from manifold3d import Manifold

    disk = design.disk
    slack = design.tolerances.magnet_slack      # radial and depth, for a glued fit
    height = disk.thickness / 2.0
    depth = disk.magnet_thickness / 2.0 + slack
    if depth >= height:
        raise ValueError("the magnet's pocket (%g mm deep) leaves no face on a %g mm half"
                         % (depth, height))
    body = Manifold.cylinder(height, disk.diameter / 2.0, circular_segments=SEGMENTS)
    pocket = Manifold.cylinder(depth + 1.0, disk.magnet_diameter / 2.0 + slack,
                               circular_segments=SEGMENTS).translate((0, 0, height - depth))
    return body - pocket


def stl_bytes(solid):
    """A binary STL of `solid` (trimesh writes it, no date), its 80-byte header saying it is
    generated (it must not begin with "solid", which marks a text STL)."""
    import numpy as np
    import trimesh

    mesh = solid.to_mesh()
    shape = trimesh.Trimesh(np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3],
                            np.asarray(mesh.tri_verts, dtype=np.int64), process=False)
    data = shape.export(file_type="stl")
    return NOTE.encode("ascii")[:80].ljust(80, b" ") + data[80:]


def outputs(design, result=None):
    from . import jig

    files = {"stack-disk-half.stl": stl_bytes(disk_half(design))}
    files.update(jig.outputs(design, result))
    return files
