# SPDX-License-Identifier: GPL-2.0-only
"""Read a ptbench run directory (results/SCHEMA.md, schema version 1).

results.csv and meta.json are required; walk_model.csv (written by the walk
model's calibration) is optional. Bad input raises InputError with the file,
the line where there is one, and what is wrong. Standard library only.

The statistics of each series (median, its 95% interval, range, CV) are not
computed here: they come from `ptbench summary DIR --format json`, the C
code `ptbench compare` also uses, so the report cannot drift from the gate.
"""
import csv
import io
import json
import math
import os
import re
import stat
import subprocess
import tempfile
from collections import OrderedDict, namedtuple

RESULT_COLUMNS = ("workload", "case", "params", "rep", "metric", "value",
                  "unit", "better")
BETTER_VALUES = ("lower", "higher", "neither")
# Parameter keys that hold the size a case is plotted against, in order.
SIZE_KEYS = ("size", "ws", "resident", "region")
# Metrics that the model computes; every other row is measured.
MODELLED_METRICS = ("pgtable_bytes_model_running", "pgtable_bytes_model_d64",
                    "pgtable_bytes_model_d128", "pgtable_d128_d64_ratio",
                    "pgtable_model_vs_kernel_ratio")
# `ptbench model ops` predictions (docs/opcost.md)
MODELLED_PREFIX = "d128_predicted_"
WALK_SOURCES = ("measured", "fitted-d64", "predicted-d128")
# Column names accepted in walk_model.csv, first one is the documented one.
WALK_COLUMN_ALIASES = {
    "source": ("source",),
    "ws": ("ws_bytes", "ws", "working_set", "working_set_bytes", "size"),
    "backing": ("backing", "pages"),
    "ns_per_access": ("ns_per_access", "ns"),
}

_SIZE_RE = re.compile(r"^([0-9]+(?:\.[0-9]+)?)([KMGT]?)(?:i?B)?$", re.I)
_SIZE_MULT = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


class InputError(Exception):
    """A run directory or one of its files is missing or malformed."""


# Larger than any results.csv or meta.json ptbench writes; /dev/zero is not one.
MAX_FILE_BYTES = 256 << 20
# Deeper than any meta.json ptbench writes; 100k levels exhaust the parser.
MAX_JSON_DEPTH = 32
# Whole numbers in meta.json (sizes, counts) fit 64 bits; 1e300 is not data.
MAX_JSON_NUMBER = float(1 << 64)

# Bad input that surfaces after parsing (a value of the wrong type or size
# reaching a format): reported as bad input, exit 2, never as a traceback.
DATA_ERRORS = (OverflowError, RecursionError, UnicodeError, TypeError, ValueError, KeyError,
               AttributeError, IndexError, ZeroDivisionError)


def read_text(path, max_bytes=MAX_FILE_BYTES):
    """The UTF-8 text of a regular file. A FIFO (which would block every
    reader), a device (/dev/zero never ends), a directory or a file over
    max_bytes is refused before it is read: InputError."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer would block here
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror or e)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = ("a directory" if stat.S_ISDIR(st.st_mode) else
                    "a FIFO" if stat.S_ISFIFO(st.st_mode) else
                    "a character device" if stat.S_ISCHR(st.st_mode) else
                    "a block device" if stat.S_ISBLK(st.st_mode) else
                    "a socket" if stat.S_ISSOCK(st.st_mode) else "of an unknown type")
            raise InputError("%s: %s, not a regular file" % (path, kind))
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as f:
            fd = None
            data = f.read(max_bytes + 1)
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror or e)) from None
    finally:
        if fd is not None:
            os.close(fd)
    if len(data) > max_bytes:
        raise InputError("%s: larger than %d bytes" % (path, max_bytes))
    if b"\0" in data:
        raise InputError("%s: contains a NUL byte; not a text file" % path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError("%s: not UTF-8: %s" % (path, e)) from None


def check_json(node, path, where="", depth=0):
    """Refuse what json.loads accepts but no consumer can use: nesting past
    MAX_JSON_DEPTH, numbers too large to be data (1e300, which overflows a
    later int()), strings that are not Unicode text (a lone surrogate, which
    cannot be written back as UTF-8)."""
    if depth > MAX_JSON_DEPTH:
        raise InputError("%s: %s: nested deeper than %d levels" % (path, where or "top",
                                                                     MAX_JSON_DEPTH))
    if isinstance(node, dict):
        for key, value in node.items():
            check_json(key, path, where, depth + 1)
            check_json(value, path, "%s.%s" % (where, key) if where else key, depth + 1)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            check_json(value, path, "%s[%d]" % (where, i), depth + 1)
    elif isinstance(node, bool) or node is None:
        pass
    elif isinstance(node, (int, float)):
        if not math.isfinite(node) or abs(node) > MAX_JSON_NUMBER:
            raise InputError("%s: %s: number %s out of range" % (path, where or "top", node))
    elif isinstance(node, str):
        try:
            node.encode("utf-8")
        except UnicodeEncodeError:
            raise InputError("%s: %s: not Unicode text (a lone surrogate)"
                             % (path, where or "a key")) from None


def parse_json(text, path):
    """json.loads, with every way it fails, and check_json, as InputError."""
    try:
        doc = json.loads(text)
    except RecursionError:
        raise InputError("%s: nested too deeply" % path) from None
    except ValueError as e:
        raise InputError("%s: malformed JSON: %s" % (path, e)) from None
    check_json(doc, path)
    return doc


# meta.json's sections and the JSON type each must have when present.
META_TYPES = {"tool": dict, "run": dict, "env": dict, "regime": dict, "timer": dict,
              "pinning": dict, "counters": dict, "cases": list, "unfinished": list}


def write_atomic(path, text=None, write=None):
    """path replaced atomically: a temporary made with mkstemp in its
    directory (never a fixed name another user could plant a symlink at),
    written (text, or write(binary file)), fsynced, then renamed."""
    directory = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path) + ".",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            if write is not None:
                write(f)
            else:
                f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class ToolError(Exception):
    """The ptbench binary is missing or failed for another reason than bad input."""


# One series' statistics as `ptbench summary` writes them (None for null).
Summary = namedtuple("Summary", "n median mean stddev cv min max ci_lo ci_hi ci_valid p90 p99")
SUMMARY_FIELDS = Summary._fields


def summary_from_json(obj):
    """A Summary from an object with the members of pt_json_summary_members."""
    return Summary(*(obj.get(f) for f in SUMMARY_FIELDS))


def find_ptbench(explicit=None):
    """The ptbench binary: explicit, else $PTBENCH, else the binary these
    scripts were built or installed with (they sit in share/ptbench/plot
    beside build/ptbench, or under PREFIX/share beside PREFIX/bin/ptbench).
    None when there is none."""
    if explicit:
        return explicit
    env = os.environ.get("PTBENCH")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))  # .../share/ptbench/plot
    top = os.path.normpath(os.path.join(here, "..", "..", ".."))
    for path in (os.path.join(top, "ptbench"), os.path.join(top, "bin", "ptbench")):
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def run_ptbench(ptbench, args, ok=(0,)):
    """stdout of `ptbench ARGS`. Exit 2 (bad input) raises InputError with
    ptbench's message; other failures raise ToolError."""
    if not ptbench:
        raise ToolError("no ptbench binary to compute the statistics (pass --ptbench, set "
                        "$PTBENCH, or run the scripts installed beside ptbench)")
    cmd = [ptbench] + list(args)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ToolError("`%s` could not run: %s" % (" ".join(cmd), e)) from None
    if proc.returncode in ok:
        return proc.stdout
    lines = [l for l in proc.stderr.strip().splitlines() if not l.startswith("(see ")]
    msg = lines[0] if lines else "no message"
    if msg.startswith("ptbench %s: " % args[0]):
        msg = msg[len("ptbench %s: " % args[0]):]
    if proc.returncode == 2:
        raise InputError(msg)
    raise ToolError("`%s` exited %d: %s" % (" ".join(cmd), proc.returncode, msg))


def load_summaries(ptbench, directory):
    """(workload, case, params, metric) -> Summary, from `ptbench summary`."""
    text = run_ptbench(ptbench, ["summary", directory, "--format", "json"])
    try:
        doc = json.loads(text)
        return {(r["workload"], r["case"], r["params"], r["metric"]): summary_from_json(r)
                for r in doc["series"]}
    except (ValueError, KeyError, TypeError) as e:
        raise ToolError("`ptbench summary %s` wrote unexpected JSON: %s" % (directory, e)) \
            from None


class Series:
    """The samples of one (workload, case, params, metric)."""

    def __init__(self, workload, case, params, metric, unit, better):
        self.workload = workload
        self.case = case
        self.params = params
        self.metric = metric
        self.unit = unit
        self.better = better
        self.values = []
        self.reps_seen = set()
        self._summary = None

    @property
    def key(self):
        return (self.workload, self.case, self.params, self.metric)

    @property
    def param_map(self):
        return parse_params(self.params)

    @property
    def size(self):
        return size_of(self.param_map)

    @property
    def modelled(self):
        return self.metric in MODELLED_METRICS or \
            self.metric.startswith(MODELLED_PREFIX)

    def summary(self):
        """The series' statistics from `ptbench summary` (set by Run)."""
        if self._summary is None:
            raise ToolError("%s: no statistics from ptbench summary" % "/".join(self.key))
        return self._summary


def parse_size(text):
    """Bytes from "4096", "64K", "1M", "2G", "1GiB"; None when not a size."""
    m = _SIZE_RE.match(text.strip())
    if not m:
        return None
    value = float(m.group(1)) * _SIZE_MULT[m.group(2).upper()]
    # "9" * 400 parses as infinity: not a size
    return int(value) if math.isfinite(value) else None


def parse_params(text):
    """The params column as an ordered dict; ValueError when malformed."""
    out = OrderedDict()
    if not text:
        return out
    for pair in text.split(";"):
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError("parameter '%s' is not key=value" % pair)
        out[key] = value
    return out


def size_of(params):
    """The case's size in bytes from its params (size=, ws=, ...), or None."""
    for key in SIZE_KEYS:
        if key in params:
            return parse_size(params[key])
    return None


# The one definition of a number, as util/schema.c has it (both are held to
# tests/fixtures/numbers.txt): what %.9g writes, and reps without sign,
# blank, underscore or leading zero.
REP_RE = re.compile(r"(0|[1-9][0-9]{0,8})\Z")
NUMBER_RE = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?\Z")
SCHEMA_VERSION = 1


def _check_header(path, header):
    # the C reader wants the header exactly; so does this one
    if tuple(header) != RESULT_COLUMNS:
        raise InputError("%s:1: header is not %s (SCHEMA.md)" % (path, ",".join(RESULT_COLUMNS)))
    return {c: header.index(c) for c in RESULT_COLUMNS}


def _parse_row(path, lineno, row, ncols, col):
    where = "%s:%d" % (path, lineno)
    if len(row) != ncols:
        raise InputError("%s: %d fields, the header has %d" % (where, len(row), ncols))
    rec = {c: row[i] for c, i in col.items()}
    for c in ("workload", "case", "metric", "unit"):
        if not rec[c]:
            raise InputError("%s: empty %s" % (where, c))
    if not REP_RE.match(rec["rep"]):
        raise InputError("%s: rep '%s' is not a whole number >= 0" % (where, rec["rep"]))
    rec["rep"] = int(rec["rep"])
    if not NUMBER_RE.match(rec["value"]):
        raise InputError("%s: value '%s' is not a number" % (where, rec["value"]))
    rec["value"] = float(rec["value"])
    if not math.isfinite(rec["value"]):
        raise InputError("%s: value '%s' is not finite" % (where, row[col["value"]]))
    if rec["better"] not in BETTER_VALUES:
        raise InputError("%s: better '%s' is not one of %s"
                         % (where, rec["better"], ", ".join(BETTER_VALUES)))
    try:
        parse_params(rec["params"])
    except ValueError as e:
        raise InputError("%s: params: %s" % (where, e)) from None
    return rec


def load_results(path):
    """Every series of a results.csv, in the order they first appear."""
    series = OrderedDict()
    text = read_text(path)
    try:
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        header = next(reader, None)
        if header is None:
            raise InputError("%s: empty file (no header)" % path)
        col = _check_header(path, header)
        for row in reader:
            rec = _parse_row(path, reader.line_num, row, len(header), col)
            _add_sample(path, reader.line_num, series, rec)
    except csv.Error as e:
        raise InputError("%s: malformed CSV: %s" % (path, e)) from None
    if not series:
        raise InputError("%s: no data rows" % path)
    return list(series.values())


def _add_sample(path, lineno, series, rec):
    key = (rec["workload"], rec["case"], rec["params"], rec["metric"])
    s = series.get(key)
    if s is None:
        s = Series(rec["workload"], rec["case"], rec["params"], rec["metric"],
                   rec["unit"], rec["better"])
        series[key] = s
    elif s.unit != rec["unit"] or s.better != rec["better"]:
        raise InputError("%s:%d: unit/better of %s differ from earlier rows"
                         % (path, lineno, "/".join(key)))
    if rec["rep"] in s.reps_seen:
        raise InputError("%s:%d: rep %d of %s appears twice" % (path, lineno, rec["rep"],
                                                               "/".join(key)))
    s.reps_seen.add(rec["rep"])
    s.values.append(rec["value"])


def load_meta(path):
    """meta.json as a dict, its known sections of the right JSON types."""
    meta = parse_json(read_text(path), path)
    if not isinstance(meta, dict):
        raise InputError("%s: the top level is not an object" % path)
    ver = meta.get("schema_version")
    if isinstance(ver, int) and not isinstance(ver, bool) and ver > SCHEMA_VERSION:
        raise InputError("%s: schema_version %d is newer than this ptbench reads (%d)"
                         % (path, ver, SCHEMA_VERSION))
    for key, want in META_TYPES.items():
        if key in meta and meta[key] is not None and not isinstance(meta[key], want):
            raise InputError("%s: '%s' is not an %s" % (
                path, key, "object" if want is dict else "array"))
    for i, case in enumerate(meta.get("cases") or []):
        if not isinstance(case, dict):
            raise InputError("%s: cases[%d] is not an object" % (path, i))
    return meta


def _walk_columns(path, header):
    col = {}
    for name, aliases in WALK_COLUMN_ALIASES.items():
        for alias in aliases:
            if alias in header:
                col[name] = header.index(alias)
                break
        else:
            raise InputError("%s:1: no '%s' column (accepted: %s)"
                             % (path, name, ", ".join(aliases)))
    return col


def _walk_row(path, lineno, row, col):
    where = "%s:%d" % (path, lineno)
    rec = {}
    try:
        rec["source"] = row[col["source"]].strip().lower()
        rec["backing"] = row[col["backing"]].strip().lower()
        ws = parse_size(row[col["ws"]])
        rec["ns_per_access"] = float(row[col["ns_per_access"]])
    except IndexError:
        raise InputError("%s: too few fields" % where) from None
    except ValueError:
        raise InputError("%s: ns_per_access '%s' is not a number"
                         % (where, row[col["ns_per_access"]])) from None
    if ws is None or ws <= 0:
        raise InputError("%s: ws '%s' is not a size in bytes" % (where, row[col["ws"]]))
    if not math.isfinite(rec["ns_per_access"]):
        raise InputError("%s: ns_per_access is not finite" % where)
    rec["ws"] = ws
    # optional columns (the nested model's ranges): absent or empty -> None
    for name in ("d128_over_d64", "d128_over_d64_lo", "d128_over_d64_hi", "hypothesis"):
        idx = col.get(name)
        text = row[idx].strip() if idx is not None and idx < len(row) else ""
        if name == "hypothesis":
            rec[name] = text or None
            continue
        try:
            rec[name] = float(text) if text else None
        except ValueError:
            raise InputError("%s: %s '%s' is not a number" % (where, name, text)) from None
    return rec


def load_walk_model(path):
    """Rows of walk_model.csv (dicts), or None when the file is absent.

    Rows whose source is not measured, fitted-d64 or predicted-d128 are kept
    (source lower-cased) and ignored by the figures.
    """
    if not os.path.lexists(path):
        return None
    rows = []
    text = read_text(path)
    try:
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        header = [h.strip() for h in next(reader, [])]
        col = _walk_columns(path, header)
        for name in ("d128_over_d64", "d128_over_d64_lo", "d128_over_d64_hi", "hypothesis"):
            if name in header:
                col[name] = header.index(name)
        for row in reader:
            if row:
                rows.append(_walk_row(path, reader.line_num, row, col))
    except csv.Error as e:
        raise InputError("%s: malformed CSV: %s" % (path, e)) from None
    return rows


class Run:
    """One run directory: its series, meta.json and optional walk model."""

    def __init__(self, directory, ptbench=None):
        if not os.path.isdir(directory):
            raise InputError("%s: not a directory" % directory)
        self.dir = directory
        self.ptbench = find_ptbench(ptbench)
        self.series = load_results(os.path.join(directory, "results.csv"))
        self.meta = load_meta(os.path.join(directory, "meta.json"))
        self.walk = load_walk_model(os.path.join(directory, "walk_model.csv"))
        summaries = load_summaries(self.ptbench, directory)
        for s in self.series:
            s._summary = summaries.get(s.key)
            if s._summary is None:
                raise ToolError("ptbench summary has no %s" % "/".join(s.key))

    def workloads(self):
        """Workload names in the order they first appear."""
        return list(OrderedDict((s.workload, None) for s in self.series))

    def select(self, workload=None, metric=None):
        return [s for s in self.series
                if (workload is None or s.workload == workload)
                and (metric is None or s.metric == metric)]

    def pgtable_kernel_series(self):
        """The kernel's page-table count per case: pgtable_bytes_kernel_total
        (the whole process, as the model covers) where a case has it, else
        pgtable_bytes_kernel (its growth over the case)."""
        total = self.select(metric="pgtable_bytes_kernel_total")
        have = {(s.workload, s.case, s.params) for s in total}
        return total + [s for s in self.select(metric="pgtable_bytes_kernel")
                        if (s.workload, s.case, s.params) not in have]

    def find(self, workload, case, params, metric):
        for s in self.series:
            if s.key == (workload, case, params, metric):
                return s
        return None

    def meta_get(self, *path, default=None):
        """A nested meta.json value, or default when any key is absent."""
        node = self.meta
        for key in path:
            if not isinstance(node, dict) or key not in node:
                return default
            node = node[key]
        return node


def human_bytes(n):
    """"64 KiB", "1.5 GiB": for labels and tables."""
    for unit, mult in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20),
                       ("KiB", 1 << 10)):
        if abs(n) >= mult:
            v = n / mult
            return ("%d %s" % (v, unit)) if v == int(v) else ("%.3g %s" % (v, unit))
    return "%d B" % n
