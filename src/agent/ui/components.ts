// The terminal UI's Ink components (React without JSX: Node runs this file as TypeScript directly).
// Finished items print once through <Static>; below them the live area: streaming text, running tools,
// the approval dialog, the input line and the status line.
import { Box, Static, Text, useInput } from "ink";
import { createElement as h, type ReactElement, useEffect, useState } from "react";
import type { ToolView } from "../../tool/Tool.ts";
import type { HistoryItem, InteractiveController, ToolEntry, UiState } from "./controller.ts";

const MAX_VIEW_LINES = 12;

function clipLines(text: string, max = MAX_VIEW_LINES): string {
  const lines = text.replace(/\s+$/, "").split("\n");
  if (lines.length <= max) return lines.join("\n");
  return [...lines.slice(0, max), `… ${lines.length - max} more lines`].join("\n");
}

function DiffView({ patch }: { patch: string }): ReactElement {
  const lines = clipLines(patch, MAX_VIEW_LINES * 2).split("\n");
  return h(
    Box,
    { flexDirection: "column" },
    ...lines.map((line, index) =>
      h(
        Text,
        {
          key: index,
          color: line.startsWith("+")
            ? "green"
            : line.startsWith("-")
              ? "red"
              : line.startsWith("@@")
                ? "cyan"
                : undefined,
        },
        line || " ",
      ),
    ),
  );
}

export function ViewBlock({ view }: { view: ToolView }): ReactElement {
  switch (view.kind) {
    case "text":
      return h(Text, null, clipLines(view.text) || " ");
    case "progress":
      return h(Text, { color: "yellow" }, clipLines(view.text, 3));
    case "command":
      return h(
        Box,
        { flexDirection: "column" },
        h(Text, { dimColor: true }, `$ ${view.command}`),
        view.output ? h(Text, null, clipLines(view.output)) : null,
        view.exitCode ? h(Text, { color: "red" }, `exit code ${view.exitCode}`) : null,
      );
    case "diff":
      return h(
        Box,
        { flexDirection: "column" },
        h(Text, { bold: true }, view.summary ?? view.path),
        h(DiffView, { patch: view.patch }),
      );
    case "list":
      return h(
        Box,
        { flexDirection: "column" },
        view.title ? h(Text, { bold: true }, view.title) : null,
        h(Text, null, clipLines(view.items.map((item) => `• ${item}`).join("\n"))),
      );
  }
}

function ToolLine({ entry }: { entry: ToolEntry }): ReactElement {
  const color = entry.status === "running" ? "yellow" : entry.status === "error" ? "red" : "green";
  const detail = entry.status === "running" ? (entry.progress ?? entry.useView) : entry.result;
  return h(
    Box,
    { flexDirection: "column", marginTop: 1 },
    h(Text, null, h(Text, { color }, "● "), h(Text, { bold: true }, entry.title)),
    detail
      ? h(Box, { marginLeft: 2 }, h(Text, { dimColor: true }, "⎿ "), h(ViewBlock, { view: detail }))
      : null,
  );
}

function HistoryLine({ item }: { item: HistoryItem }): ReactElement {
  switch (item.kind) {
    case "user":
      return h(Box, { marginTop: 1 }, h(Text, { color: "cyan" }, `> ${item.text}`));
    case "assistant":
      return h(Box, { marginTop: 1 }, h(Text, null, item.text));
    case "tool":
      return h(ToolLine, { entry: item.entry });
    case "notice":
      return h(
        Box,
        { marginTop: 1 },
        h(
          Text,
          { color: item.level === "error" ? "red" : item.level === "warning" ? "yellow" : "gray" },
          item.text,
        ),
      );
  }
}

function FormDialog({ state }: { state: NonNullable<UiState["dialog"]> }): ReactElement {
  const form = state.form!;
  return h(
    Box,
    { flexDirection: "column", borderStyle: "round", borderColor: "yellow", paddingX: 1, marginTop: 1 },
    h(Text, { bold: true }, `${state.title}:`),
    h(Text, null, state.message),
    h(Text, { bold: true }, form.field),
    form.description ? h(Text, { dimColor: true }, form.description) : null,
    ...form.choices.map((choice) => h(Text, { key: choice }, `  ${choice}`)),
    form.problem ? h(Text, { color: "red" }, form.problem) : null,
    h(Text, { dimColor: true }, form.hint),
  );
}

function Dialog({ state }: { state: NonNullable<UiState["dialog"]> }): ReactElement {
  if (state.form) return h(FormDialog, { state });
  return h(
    Box,
    { flexDirection: "column", borderStyle: "round", borderColor: "yellow", paddingX: 1, marginTop: 1 },
    h(Text, { bold: true }, `Allow ${state.title}?`),
    h(Text, { dimColor: true }, state.message),
    h(Text, null, "y  yes, this once"),
    state.alwaysRule ? h(Text, null, `a  always allow ${state.alwaysRule}`) : null,
    h(Text, null, "n  no"),
  );
}

export function App({ controller }: { controller: InteractiveController }): ReactElement {
  const [state, setState] = useState<UiState>(controller.state);
  useEffect(() => controller.subscribe(() => setState(controller.state)), [controller]);
  useInput((input, key) => {
    if (key.ctrl && input === "c") return controller.ctrlC();
    if (controller.state.dialog?.form) {
      // A form is answered on the input line: typing edits it, Enter answers the field, Esc declines.
      if (key.escape) return controller.answerForm(true);
      if (key.return) return controller.answerForm();
      if (key.backspace || key.delete) return controller.backspace();
      if (!key.ctrl && !key.meta && input) controller.typed(input.replace(/[\r\n]+/g, ""));
      if (/[\r\n]$/.test(input)) controller.answerForm();
      return;
    }
    if (controller.state.dialog) {
      const answer = input.toLowerCase();
      if (answer === "y") controller.answer("yes");
      else if (answer === "a" && controller.state.dialog.alwaysRule) controller.answer("always");
      else if (answer === "n" || key.escape) controller.answer("no");
      return;
    }
    if (key.ctrl && input === "d") return controller.exit(0);
    if (key.return) return void controller.enter();
    if (key.backspace || key.delete) return controller.backspace();
    if (
      key.ctrl ||
      key.meta ||
      key.escape ||
      key.tab ||
      key.upArrow ||
      key.downArrow ||
      key.leftArrow ||
      key.rightArrow
    )
      return;
    // Keys typed faster than a frame (or pasted) arrive together, Enter included.
    const enter = /[\r\n]$/.test(input);
    const text = input.replace(/[\r\n]+$/, "").replace(/\r?\n/g, " ");
    if (text) controller.typed(text);
    if (enter) void controller.enter();
  });
  return h(
    Box,
    { flexDirection: "column" },
    h(Static<HistoryItem>, {
      items: state.history,
      // biome-ignore lint/correctness/noChildrenProp: Static takes a render function, and there is no JSX here
      children: (item: HistoryItem) => h(HistoryLine, { key: item.id, item }),
    }),
    state.streamingText ? h(Box, { marginTop: 1 }, h(Text, null, state.streamingText)) : null,
    ...state.tools.map((entry) => h(ToolLine, { key: entry.id, entry })),
    state.dialog ? h(Dialog, { state: state.dialog }) : null,
    h(
      Box,
      { marginTop: 1, borderStyle: "round", borderColor: state.running ? "gray" : "cyan", paddingX: 1 },
      h(
        Text,
        null,
        state.running && !state.dialog?.form
          ? h(Text, { dimColor: true }, "working… (Ctrl-C to stop)")
          : `> ${state.input}█`,
      ),
    ),
    h(Text, { dimColor: true }, state.hint ?? state.status),
  );
}
