"""The AST interpreter of RLBench task files: each construct, harmless on harmful files, hand checks."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pytest

from robotask.retrieval.ast_interpreter import expressions, interpreter
from robotask.retrieval.ast_interpreter.evaluator import evaluate_task_file

MIRROR = Path("/work/.mirror/stepjam+RLBench/repo")
CONST = "colors = [('red', (1.0, 0.0, 0.0)), ('blue', (0.0, 0.0, 1.0)), ('green', (0.0, 1.0, 0.0))]\n"


def resolver(module: str) -> str | None:
    return CONST if module == "rlbench.const" else None


def task(body: str, top: str = "", count: str = "return 2", init_task: str = "pass") -> str:
    """A task file: module-level ``top``, ``init_task``, ``init_episode`` ``body``, ``variation_count``."""
    return (
        "import numpy as np\nfrom pyrep.objects.shape import Shape\n"
        "from rlbench.backend.task import Task\nfrom rlbench.const import colors\n"
        + textwrap.dedent(top)
        + "\nclass T(Task):\n    def init_task(self):\n"
        + textwrap.indent(textwrap.dedent(init_task), " " * 8)
        + "\n    def init_episode(self, index):\n"
        + textwrap.indent(textwrap.dedent(body), " " * 8)
        + "\n    def variation_count(self):\n        " + count + "\n"
    )


def texts(source: str, **kwargs) -> list[list[str | None]]:
    result = evaluate_task_file(source, resolver, **kwargs)
    assert not result.reason, result.reason
    return [result.texts(v.index) for v in result.variations]


def test_module_constants_and_percent():
    source = task("return ['pick up the %s' % NAMES[index]]", "NAMES = ['cube', 'star']",
                  "return len(NAMES)")
    assert texts(source) == [["pick up the cube"], ["pick up the star"]]


def test_imported_constants_and_tuple_unpacking():
    source = task("name, _ = colors[index]\nreturn ['reach the %s target' % name]", count="return len(colors)")
    result = evaluate_task_file(source, resolver)
    assert [result.texts(i) for i in range(3)] == [["reach the red target"], ["reach the blue target"],
                                                   ["reach the green target"]]
    first = result.variations[0].descriptions[0]
    assert (first.template, first.fills, result.variations[0].value) == ("reach the %s target", ("red",), "red")


def test_instance_attributes_from_init_task():
    source = task("option = self._options[index]\nreturn ['open %s drawer' % (option,)]",
                  init_task="self._options = ['bottom', 'top']")
    assert texts(source) == [["open bottom drawer"], ["open top drawer"]]


def test_arithmetic_int_len_range():
    body = """
        color_index = int(index / 3)
        n = 2 + index % 3
        name, _ = colors[color_index]
        return ['stack %d %s blocks' % (n, name), 'count %d' % len(list(range(n)))]
    """
    result = evaluate_task_file(task(body, count="return len(colors) * 3"), resolver)
    assert result.variation_count == 9
    assert result.texts(0) == ["stack 2 red blocks", "count 2"]
    assert result.texts(5) == ["stack 4 blue blocks", "count 4"]
    assert result.variations[0].value == "2|red"  # distinct fills, in order


def test_indexing_slicing_and_negative_index():
    body = "return ['turn %s' % CH[index - 1], 'first %s' % CH[1:][0], 'rev %s' % ''.join(CH[::-1])]"
    assert texts(task(body, "CH = ['up', 'down']")) == [
        ["turn down", "first down", "rev downup"], ["turn up", "first down", "rev downup"]]


def test_starred_unpacking_and_dict_lookup():
    body = "first, *rest = WORDS\nd = {0: 'green', 1: 'red'}\nreturn ['%s %s %d' % (first, d[index], len(rest))]"
    assert texts(task(body, "WORDS = ['a', 'b', 'c']")) == [["a green 2"], ["a red 2"]]


def test_format_fstring_and_concatenation():
    body = """
        name = NAMES[index]
        return ['put the {} away'.format(name), f'grab the {name!s:>5}', 'take ' + name, 'x' 'y']
    """
    result = evaluate_task_file(task(body, "NAMES = ['cup', 'mug']"), resolver)
    assert result.texts(0) == ["put the cup away", "grab the   cup", "take cup", "xy"]
    templates = [d.template for d in result.variations[0].descriptions]
    assert templates == ["put the {} away", "grab the {name!s:>5}", "take {name}", ""]


def test_list_comprehension_and_augmented_strings():
    body = """
        rtn = 'push %s' % NAMES[0]
        for i in range(index + 1):
            if i == 0:
                continue
            rtn += ', then %s' % NAMES[i]
        return [rtn] + ['take %s' % n for n in NAMES[:index + 1] if n != 'b']
    """
    result = evaluate_task_file(task(body, "NAMES = ['a', 'b', 'c']", "return 3"), resolver)
    assert result.texts(2) == ["push a, then b, then c", "take a", "take c"]
    assert result.variations[2].descriptions[0].template == "push %s, then %s, then %s"


def test_if_branches_on_the_index():
    body = """
        if index == 0:
            return ['place 1 cup']
        else:
            return ['place %d cups' % (index + 1)]
    """
    result = evaluate_task_file(task(body, count="return 3"), resolver)
    assert [result.texts(i) for i in range(3)] == [["place 1 cup"], ["place 2 cups"], ["place 3 cups"]]
    assert result.variations[0].descriptions[0].template == ""
    assert result.variations[1].descriptions[0].template == "place %d cups"


def test_class_constants_helpers_and_while_loops():
    top = "def plural(n):\n    return 'piece' if n == 1 else 'pieces'\n"
    body = """
        self.n = 1 + index % self.MAX
        self.items = [Shape('a'), Shape('b'), Shape('c')]
        while len(self.items) > self.n:
            self.items.pop()
        return ['place %d %s' % (len(self.items), plural(self.n))]
    """
    source = task(body, top, "return self.MAX").replace("class T(Task):\n", "class T(Task):\n    MAX = 3\n")
    assert texts(source) == [["place 1 piece"], ["place 2 pieces"], ["place 3 pieces"]]


def test_simulator_values_stay_templates_with_a_reason():
    body = "c = Shape('x').get_color()\nreturn ['reach the %s target' % c, 'touch it', self.robot.name]"
    result = evaluate_task_file(task(body), resolver)
    first, second, third = result.variations[0].descriptions
    assert first.text is None and first.template == "reach the %s target"
    assert first.reason.startswith("simulator: `Shape`")
    assert second.text == "touch it"
    assert third.text is None and "self.robot" in third.reason


def test_randomness_stays_a_template_with_a_reason():
    body = """
        i = np.random.choice(len(colors))
        other, _ = colors[i]
        name, _ = colors[index]
        return ['stack on %s' % name, 'avoid the %s one' % other, f'pick {random.choice(colors)}']
    """
    result = evaluate_task_file(task(body, "import random"), resolver)
    described = result.variations[1].descriptions
    assert described[0].text == "stack on blue"
    assert described[1].text is None and described[1].template == "avoid the %s one"
    assert described[1].reason.startswith("randomness: `np.random.choice`")
    assert described[2].template == "pick {random.choice(colors)}" and "randomness" in described[2].reason


def test_unknown_condition_keeps_what_both_branches_agree_on():
    body = """
        if np.random.rand() > 0.5:
            a, b = 'left', 'same'
        else:
            a, b = 'right', 'same'
        return ['go %s' % a, 'stay %s' % b]
    """
    (go, stay), _ = [v.descriptions for v in evaluate_task_file(task(body), resolver).variations]
    assert go.text is None and "decides `if np.random.rand() > 0.5`" in go.reason
    assert stay.text == "stay same"


def test_loop_over_unknown_iterable_makes_changed_names_unknown():
    body = """
        found = []
        for shape in Shape('x').children():
            found.append(shape)
        return ['found %d' % len(found), 'fixed']
    """
    first, second = evaluate_task_file(task(body), resolver).variations[0].descriptions
    assert first.text is None and "unknown number of times" in first.reason
    assert second.text == "fixed"


def test_returned_list_that_depends_on_randomness_is_a_variation_reason():
    body = "if np.random.rand() > 0.5:\n    return ['a']\nreturn ['b']"
    variation = evaluate_task_file(task(body), resolver).variations[0]
    assert variation.descriptions == [] and "returns depends on" in variation.reason


def test_harmful_init_episode_does_nothing(tmp_path):
    marker = tmp_path / "harm.txt"
    body = f"""
        import os
        os.system('touch {marker}')
        open('{marker}', 'w').write('x')
        __import__('os').system('touch {marker}')
        eval("open('{marker}', 'w')")
        ''.__class__.__mro__[1].__subclasses__()
        return ['do %s' % os.system('touch {marker}'), 'write %s' % open('{marker}', 'w')]
    """
    result = evaluate_task_file(task(body), resolver)
    assert not marker.exists()
    first, second = result.variations[0].descriptions
    assert first.text is None and first.template == "do %s"
    assert first.reason.startswith("external code: `os.system`")
    assert second.text is None and second.reason.startswith("external code: `open`")


def test_harmful_variation_count_does_nothing(tmp_path):
    marker = tmp_path / "harm.txt"
    source = task("return ['x']", "import os", f"return os.system('touch {marker}')")
    result = evaluate_task_file(source, resolver)
    assert not marker.exists()
    assert result.variation_count is None and result.variations == []
    assert result.reason.startswith("variation_count() is not static: external code: `os.system`")


def test_huge_values_and_set_order_are_refused():
    body = "return ['x' * 10 ** 9, 'y' * (2 ** 300), ', '.join(list({'a', 'b'})), '%01000d' % 1]"
    described = evaluate_task_file(task(body), resolver).variations[0].descriptions
    assert all(d.text is None for d in described)
    assert "more than" in described[0].reason and "exponent above 256" in described[1].reason
    assert "set" in described[2].reason and "width" in described[3].reason


def test_step_budget(monkeypatch):
    monkeypatch.setattr(expressions, "LIMIT_STEPS", 5_000)
    monkeypatch.setattr(interpreter, "LIMIT_STEPS", 5_000)
    result = evaluate_task_file(task("while True:\n    pass\nreturn ['x']"), resolver)
    assert "5000 evaluation steps" in result.variations[0].reason


def test_files_that_cannot_be_evaluated():
    assert evaluate_task_file("def (:", resolver).reason.startswith("not valid Python")
    assert evaluate_task_file("x = 1\n", resolver).reason == "no init_episode method"
    no_count = task("return ['x']").replace("def variation_count", "def other")
    assert "no method `variation_count`" in evaluate_task_file(no_count, resolver).reason
    raising = task("raise ValueError('no')")
    assert evaluate_task_file(raising, resolver).variations[0].reason.startswith("raises `ValueError('no')`")
    not_list = evaluate_task_file(task("return 'x'"), resolver).variations[0]
    assert not_list.reason == "init_episode returns a Text, not a list"


# Hand checks against RLBench 02720bba (skipped without the mirror: CI has none).
needs_mirror = pytest.mark.skipif(not MIRROR.is_dir(), reason=f"RLBench mirror {MIRROR} is absent")


def mirror_task(name: str):
    def read(module: str) -> str | None:
        shown = subprocess.run(["git", "-C", str(MIRROR), "show", f"02720bba4c73:{module.replace('.', '/')}.py"],
                               capture_output=True, text=True)
        return shown.stdout if shown.returncode == 0 else None

    return evaluate_task_file(read(f"rlbench.tasks.{name}"), read, f"rlbench.tasks.{name}")


@needs_mirror
def test_stack_blocks_has_60_variations():
    result = mirror_task("stack_blocks")
    assert result.variation_count == 60 and all(v.expanded for v in result.variations)
    assert result.texts(0)[0] == "stack 2 red blocks"
    assert result.texts(1)[0] == "stack 3 red blocks" and result.texts(2)[0] == "stack 4 red blocks"
    assert result.texts(59)[0] == "stack 4 white blocks"
    assert result.variations[0].value == "2|red"


@needs_mirror
def test_reach_target_push_buttons_groceries_drawer():
    reach = mirror_task("reach_target")
    assert reach.variation_count == 20 and reach.texts(1)[0] == "reach the maroon target"
    buttons = mirror_task("push_buttons")
    assert buttons.variation_count == 50
    assert buttons.texts(0)[0] == "push the maroon button"
    assert buttons.texts(1)[0] == "push the maroon button, then push the green button"
    assert buttons.texts(5)[2] == ("push down the button with the maroon base, then the green one, "
                                   "then the navy one")
    groceries = mirror_task("put_groceries_in_cupboard")
    assert groceries.variation_count == 9 and groceries.texts(1)[0] == "put the chocolate jello in the cupboard"
    drawer = mirror_task("open_drawer")
    assert [drawer.texts(i)[0] for i in range(3)] == ["open bottom drawer", "open middle drawer", "open top drawer"]


def test_growth_is_refused():
    body = """
        x = 3
        for _ in range(40):
            x = x * x
        s = ['ab'] * 1000
        for _ in range(200):
            s += s
        w = '%*d' % (10 ** 8, 1)
        return ['%d' % len(s), 'x' if x else 'y', w, '{:{}}'.format(1, 10 ** 8), '-'.join(['a' * 90000] * 9)]
    """
    described = evaluate_task_file(task(body), resolver).variations[0].descriptions
    assert [d.text for d in described] == [None] * 5
    assert "100000 bits" in described[1].reason and "items" in described[0].reason
    assert "width" in described[2].reason and "width" in described[3].reason


def test_extend_with_unknown_items_keeps_the_known_ones():
    body = "rtn = ['a']\nrtn.extend(Shape('x').names())\nrtn += ['b']\nreturn rtn"
    described = evaluate_task_file(task(body), resolver).variations[0].descriptions
    assert [d.text for d in described] == ["a", None, "b"]
    assert described[1].reason.startswith("simulator: `Shape`")
