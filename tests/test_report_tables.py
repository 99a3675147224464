"""Tables for a reader: headers aligned with their cells, wrapping messages, benchmark tables with units."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from robotask.book import benchmarks, provenance, report


def _header_and_cell_alignments(html: str) -> tuple[list[str], list[str]]:
    heads = re.findall(r'<th style="text-align: (\w+)', html)
    first_row = html.split("<tbody><tr>")[1].split("</tr>")[0]
    cells = re.findall(r'<td style="text-align: (\w+)', first_row)
    return heads, cells


def test_headers_are_aligned_like_their_cells():
    frame = pd.DataFrame({"task": ["open box", "lamp on"], "n_rows": [1.0, 2.0], "mean": [61.27, np.nan],
                          "ok": [True, False]})
    html = report.table_html(frame)
    heads, cells = _header_and_cell_alignments(html)
    assert heads == cells == ["left", "right", "right", "left"]
    assert 'style="text-align: right;"' not in html  # pandas' right-aligned header row is gone
    assert ">61.3<" in html and ">–<" in html and ">yes<" in html and ">1<" in html


def test_cells_are_escaped_and_messages_wrap():
    frame = pd.DataFrame({"input": ["a < b on `x == 0`"], "message": ["line one\nline two"]})
    html = report.table_html(frame, code_columns=("message",))
    assert "a &lt; b on <code>x == 0</code>" in html
    assert "<code" in html and "white-space: pre-wrap" in html and "overflow-wrap: anywhere" in html
    assert 'style="overflow-x: auto"' in html  # a table wider than the page scrolls, never cut off
    long_id = report.table_html(pd.DataFrame({"file": ["put_umbrella_in_stand.py"]}))
    assert ">put_<wbr>umbrella_<wbr>in_<wbr>stand.py<" in long_id  # it may break after "_"


def test_long_tables_keep_their_reason():
    html = report.table_html(pd.DataFrame({"x": range(3)}), long_reason="one row per case")
    assert 'data-long-table="one row per case"' in html


def test_human_header_capitalises_lower_case_names():
    assert report.human_header("n_trials") == "N trials"
    assert report.human_header("descriptions kept") == "Descriptions kept"
    assert report.human_header("Char TF-IDF") == "Char TF-IDF"


COLLECTION = {
    "cpus": 2, "episodes": 16, "frames": 1200, "resolution": 128, "synthesis_s": 31.49,
    "decode_only": {"annotation_frames_per_s": 1231.46, "seconds": 15.59, "video_frames": 115200},
    "features": [
        {"workers": 1, "wall_s": 63.12, "frames_per_s": 304.19, "peak_mb": 306.98, "speedup": 1.0,
         "episode_s": 3.89},
        {"workers": 2, "wall_s": 40.99, "frames_per_s": 468.46, "peak_mb": 305.41, "speedup": 1.54,
         "episode_s": 5.06},
    ],
    "suite_s": 88.2,
    "suite_primary": {"next_action": {"metric": "macro_f1", "higher_is_better": True, "baseline": 0.0,
                                      "minimal": 0.71, "mlp": None}},
    "suite_status": {"next_action": {"status": "ok"}},
}


def test_scaling_table_has_units_and_the_decode_floor_row():
    table = benchmarks.scaling_table(COLLECTION)
    assert list(table.columns) == ["Run", "Workers", "Wall time (s)", "Frames/s", "Speed-up (×)",
                                   "Peak memory per worker (MB)", "Seconds per episode"]
    assert table["Run"].iloc[-1].startswith("decoding the videos only")
    assert table["Frames/s"].iloc[-1] == COLLECTION["decode_only"]["annotation_frames_per_s"]
    assert table["Wall time (s)"].tolist()[:2] == [63.12, 40.99]
    legend = benchmarks.scaling_legend(COLLECTION)
    for words in ("Wall time", "Frames/s", "Speed-up", "Peak memory per worker", "in MB", "19200 frames"):
        assert words in legend
    assert benchmarks.scaling_table({"study_s": 1.0}) is None


def test_benchmark_measures_are_labelled_with_units():
    table = benchmarks.benchmark_measures(COLLECTION)
    assert "Synthesis of the collection (s)" in set(table["Measure"])
    assert "Suite on the collection, split by episode (s)" in set(table["Measure"])
    assert not table["Measure"].str.contains("_").any()
    live = benchmarks.benchmark_measures({"study_s": 1.892, "ratio": 86.29, "identical": True, "n_predictions": 6915})
    assert dict(zip(live["Measure"], live["Value"])) == {
        "Whole study: wall time (s)": "1.892", "Fast path speed-up over the reference (×)": "86.29",
        "Compared predictions": "6915", "Identical predictions": "yes"}


def test_a_benchmark_with_nothing_of_its_own_to_show_says_so_instead_of_an_empty_table(monkeypatch):
    """A collection_scale result that holds only its --full-size point (measured alone) has no curve: one sentence
    under its heading, not a table of no rows."""
    shown: list[tuple[str, object]] = []
    monkeypatch.setattr(benchmarks, "show_md", lambda text: shown.append(("md", text)))
    monkeypatch.setattr(benchmarks, "show_table", lambda table, **kw: shown.append(("table", table)))
    benchmarks.show_benchmark("collection_scale", {"full_size": {"episodes": 4}})
    assert [kind for kind, _ in shown] == ["md", "md"]
    assert "Only its `--full-size` point was saved" in str(shown[1][1])
    shown.clear()
    benchmarks.show_benchmark("retrieval_live", {"study_s": 1.5})
    assert [kind for kind, _ in shown] == ["md", "table"]


def test_primary_table_and_legend_of_the_suite_on_a_collection():
    table = benchmarks.primary_table(COLLECTION["suite_primary"], COLLECTION["suite_status"],
                                 {"next_action": "Next-Action Prediction"}, {"macro_f1": "macro-F1"})
    assert table.to_dict("records") == [{"Task": "Next-Action Prediction", "Primary metric": "macro-F1",
                                         "Baseline": 0.0, "Minimal head": 0.71, "MLP": None, "Status": "ok"}]
    assert "(88.2 s in all)" in benchmarks.primary_legend(COLLECTION)
    assert "the 1 task, trained" in benchmarks.primary_legend(COLLECTION)


def test_run_time_values_agree_with_their_numbers():
    runs = pd.DataFrame({"chapter": ["01_a", "02_b"], "seconds": [10.0, 30.5], "cpu_seconds": [8.0, 55.25]})
    assert provenance.run_time_values(runs) == {"n_chapters": 2, "total_s": 40.5, "total_cpu_s": 63.25,
                                                 "slowest": "02_b", "slowest_s": 30.5}
    old_log = provenance.run_time_values(runs.drop(columns="cpu_seconds"))  # written before CPU was recorded
    assert np.isnan(old_log.pop("total_cpu_s")) and old_log["total_s"] == 40.5


def test_units_stay_on_their_numbers_line():
    from robotask.words import keep_units

    nbsp = "\u00a0"
    assert keep_units("95 % interval 70.8 % to 74.4 %; 53.6 pp.") == (
        f"95{nbsp}% interval 70.8{nbsp}% to 74.4{nbsp}%; 53.6{nbsp}pp.")
    assert keep_units("5 ppm, x % y, 3 pages") == "5 ppm, x % y, 3 pages"


def test_table_caption_is_numbered_in_page_order_and_escaped():
    from robotask.book import report as rep

    frame = pd.DataFrame({"ranker": ["char"], "mean": [61.0]})
    html = rep.table_html(frame, caption="Table 3. Mean  <top-1> accuracy")
    assert '<caption style="caption-side: top' in html and "Table 3. Mean &lt;top-1&gt; accuracy</caption>" in html
    assert "<caption" not in rep.table_html(frame)
    page = rep.Page("00_home")
    assert page.next_table_number() == "1" and page.next_table_number() == "2"
    assert rep.Page("00_home").next_table_number() == "1"  # each page counts its own tables


def test_tables_are_numbered_after_their_chapter():
    from robotask.book import report as rep

    page = rep.Page("02_five_rankers")
    assert page.next_table_number() == "2.1" and page.next_table_number() == "2.2"
    assert rep.Page("09_libraries").next_table_number() == "9.2.1"  # shares 09 with 09_transfer
    assert rep.Page("12_task_transition_detection").next_table_number() == "12.3.1"


def test_scale_table_ends_with_the_projection_labelled_as_one():
    result = {"scale": [{"path": "streamed", "episodes": 8, "workers": 0, "wall_s": 10.0, "peak_gb": 0.5},
                        {"path": "in memory", "episodes": 8, "workers": 0, "wall_s": 9.0, "peak_gb": 0.9}],
              "projection": {"episodes": 12103, "wall_s": 1e5, "peak_gb": 0.6}}
    table = benchmarks.scale_table(result)
    assert list(table["Episodes"]) == [8, 8, 12103]
    assert "projection" in table["Path"].iloc[-1]
    assert benchmarks.scale_table({"study_s": 1.0}) is None


def test_collection_scale_figure_draws_every_run_and_the_projection_dashed():
    import matplotlib.pyplot as plt

    result = {"scale": [{"path": "streamed", "episodes": n, "workers": w, "wall_s": 2.0 * n, "peak_gb": 0.5}
                        for n in (8, 32) for w in (0, 2)]
              + [{"path": "in memory", "episodes": 8, "workers": 0, "wall_s": 9.0, "peak_gb": 0.9}],
              "projection": {"episodes": 12103, "wall_s": 1e5, "peak_gb": 0.6}}
    fig = benchmarks.figure_collection_scale(result)
    wall = fig.axes[0]
    labels = [line.get_label() for line in wall.get_lines()]
    assert "in memory, in process" in labels and "streamed, 2 Dask workers" in labels
    dashed = [line for line in wall.get_lines() if line.get_linestyle() == "--"]
    assert len(dashed) == 1 and list(dashed[0].get_xdata()) == [32, 12103]
    plt.close(fig)
    assert benchmarks.figure_collection_scale({"study_s": 1.0}) is None


def test_full_size_episodes_are_a_separate_point_of_the_scale_table_and_figure():
    import matplotlib.pyplot as plt

    full = {"episodes": 8, "frames": 5821, "resolution": 128,
            "points": [{"path": "streamed", "episodes": 8, "workers": w, "wall_s": 500.0, "peak_gb": 1.2}
                       for w in (0, 2)]}
    result = {"scale": [{"path": "streamed", "episodes": n, "workers": 0, "wall_s": 2.0 * n, "peak_gb": 0.5}
                        for n in (8, 32)], "projection": {"episodes": 12103, "wall_s": 1e5, "peak_gb": 0.6},
              "full_size": full}
    table = benchmarks.scale_table(result)
    rows = table[table["Path"].str.contains("full-size")]
    assert list(rows["Dask workers (0: in process)"]) == [0, 2] and list(rows["Wall time (s)"]) == [500.0, 500.0]
    assert "5,821 frames, 128 px" in rows["Path"].iloc[0] and "projection" in table["Path"].iloc[-1]
    fig = benchmarks.figure_collection_scale(result)
    stars = [line for line in fig.axes[0].get_lines() if line.get_marker() == "*"]
    assert [list(line.get_xdata()) for line in stars] == [[8], [8]]
    assert "full-size episodes (5,821 frames, 128 px), in process" in [line.get_label() for line in stars]
    memory = fig.axes[1]
    fig.canvas.draw()
    labels = [t.get_text() for t in memory.get_yticklabels() if t.get_text()]
    assert labels[:2] == ["0.5", "1"] and len(labels) >= 2  # 1-2-5 steps within the range (0.5 to 6 GB here)
    plt.close(fig)


def test_growth_table_compares_each_size_with_a_quarter_of_it_on_the_same_path():
    primal = "streamed, gradient heads in the primal"
    result = {"scale": [{"path": "streamed", "episodes": 16, "workers": 0, "wall_s": 30.0, "peak_gb": 0.4},
                        {"path": "streamed", "episodes": 32, "workers": 0, "wall_s": 100.0, "peak_gb": 0.5},
                        {"path": "streamed", "episodes": 64, "workers": 0, "wall_s": 330.0, "peak_gb": 0.44},
                        {"path": "streamed", "episodes": 64, "workers": 2, "wall_s": 300.0, "peak_gb": 0.8},
                        {"path": primal, "episodes": 16, "workers": 0, "wall_s": 80.0, "peak_gb": 0.4},
                        {"path": primal, "episodes": 64, "workers": 0, "wall_s": 330.0, "peak_gb": 0.44}]}
    table = benchmarks.growth_table(result)
    assert list(table["Path"]) == ["streamed", primal]  # the 2-worker run has no size a quarter of 64
    assert list(table["Wall time, ratio (×)"]) == [11.0, 4.125]
    assert list(table["From (episodes)"]) == [16, 16] and list(table["To (episodes)"]) == [64, 64]
    assert abs(table["Peak memory, ratio (×)"].iloc[0] - 1.1) < 1e-12
    assert benchmarks.growth_table({"scale": result["scale"][:2]}) is None
    assert benchmarks.growth_table({"study_s": 1.0}) is None


def test_the_primal_run_is_drawn_dash_dot_beside_the_solid_streamed_line():
    import matplotlib.pyplot as plt

    primal = "streamed, gradient heads in the primal"
    result = {"scale": [{"path": p, "episodes": n, "workers": 0, "wall_s": 2.0 * n, "peak_gb": 0.5}
                        for p in ("streamed", primal) for n in (8, 32)]}
    fig = benchmarks.figure_collection_scale(result)
    styles = {line.get_label(): line.get_linestyle() for line in fig.axes[0].get_lines()}
    assert styles == {"streamed, in process": "-", f"{primal}, in process": "-."}
    plt.close(fig)


def test_a_float_cell_of_1000_or_more_shows_no_decimals_in_the_table_and_its_csv():
    import pandas as pd

    from robotask.book.report import float_text, shown_values, table_html

    assert float_text(1559.748, 3) == "1560" and float_text(-1256.0, 3) == "-1256" and float_text(0.1234, 3) == "0.123"
    frame = pd.DataFrame({"x": [-1559.748, 0.5]})
    assert "−1560" in table_html(frame, digits=3) and "0.500" in table_html(frame, digits=3)
    assert shown_values(frame, digits=3)["X"].tolist() == ["-1560", "0.500"]


def test_a_nonzero_cell_that_rounds_to_zero_keeps_its_sign_and_zero_has_none():
    """An interval's end of −0.0004 read at 3 decimals is below zero: the table says so ("−0.0004"), where
    rounding alone printed "−0.000", which a reader cannot place on either side of zero."""
    import pandas as pd

    from robotask.book.report import float_text, shown_values, table_html

    assert float_text(-0.0004, 3) == "-0.0004" and float_text(0.0003, 3) == "0.0003"
    assert float_text(-0.0, 3) == "0.000" and float_text(0.0, 1) == "0.0" and float_text(-2e-7, 4) == "-2e-07"
    assert float_text(9e-15, 1) == "0.0" and float_text(-4e-19, 4) == "0.0000"  # rounding noise is zero
    frame = pd.DataFrame({"low": [-0.0394, -0.00042, 0.0], "high": [-0.00038, 0.354, -0.0]})
    html = table_html(frame, digits=3)
    assert "−0.0004" in html and "−0.039" in html and "0.354" in html and "−0.000<" not in html
    assert shown_values(frame, digits=3).to_dict("list") == {"Low": ["-0.039", "-0.0004", "0.000"],
                                                            "High": ["-0.0004", "0.354", "0.000"]}
