// The terminal UI's Ink components (React without JSX: Node runs this file as TypeScript directly).
// Finished items print once through <Static>; below them the live area: streaming text, running tools,
// the approval dialog or an MCP server's form, the input line and the status line.
import { Box, Static, Text, useInput, usePaste, useWindowSize } from "ink";
import { createElement as h, type ReactElement, useEffect, useState } from "react";
import type { ApprovalPrompt } from "../../permissions/prompters/approvalOptions.ts";
import type { ToolView } from "../../tool/Tool.ts";
import type { DialogState, InteractiveController, UiState } from "./controller.ts";
import type { FormState } from "./formInput.ts";
import type { PickerState } from "./picker.ts";
import { PromptView } from "./promptView.ts";
import type { HistoryItem, ToolEntry } from "./transcriptView.ts";

const MAX_VIEW_LINES = 12;

function clipLines(text: string, max = MAX_VIEW_LINES): string {
  const lines = text.replace(/\s+$/, "").split("\n");
  if (lines.length <= max) return lines.join("\n");
  return [...lines.slice(0, max), `… ${lines.length - max} more lines`].join("\n");
}

/** Preview lines an approval shows at most, however tall the terminal. */
const MAX_PREVIEW_LINES = MAX_VIEW_LINES * 2;

function DiffView({
  patch,
  maxLines = MAX_PREVIEW_LINES,
}: {
  patch: string;
  maxLines?: number;
}): ReactElement {
  const lines = clipLines(patch, maxLines).split("\n");
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

export function ViewBlock({ view, maxLines }: { view: ToolView; maxLines?: number }): ReactElement {
  switch (view.kind) {
    case "text":
      return h(Text, null, clipLines(view.text, maxLines) || " ");
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
        h(DiffView, { patch: view.patch, ...(maxLines === undefined ? {} : { maxLines }) }),
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
    // The bracket in a box of its own with a margin: a trailing space inside a Text is dropped by the layout.
    detail
      ? h(
          Box,
          { marginLeft: 2 },
          h(Box, { marginRight: 1, flexShrink: 0 }, h(Text, { dimColor: true }, "⎿")),
          h(ViewBlock, { view: detail }),
        )
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

/** Terminal lines `text` takes at `width` columns. */
function wrappedLines(text: string, width: number): number {
  const usable = Math.max(10, width);
  return text.split("\n").reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / usable)), 0);
}

/**
 * How many preview lines an approval can show so that the whole live area (running tools, the dialog,
 * the prompt box, the status line) fits the terminal. Taller than the terminal, its top (the title and
 * the first lines of the diff) would scroll away where nobody sees it, and every redraw would leave a
 * copy of it in the scrollback.
 */
export function previewLineBudget(
  prompt: ApprovalPrompt,
  window: { rows: number; columns: number },
  around: number,
): number {
  const inner = window.columns - 4; // the dialog's border and padding
  const dialog =
    1 + // margin
    2 + // border
    wrappedLines(prompt.title, inner) +
    2 + // the preview's margins
    2 + // a diff's summary line, and the "… more lines" line
    wrappedLines(prompt.reason, inner) +
    1 + // "Do you want to proceed?"
    prompt.options.reduce(
      (sum, option) =>
        sum +
        wrappedLines(`  ${option.key}. ${option.label} (shift+tab)`, inner) +
        (option.detail ? wrappedLines(option.detail, inner - 5) : 0),
      0,
    );
  // One line to spare: a frame as tall as the terminal is redrawn from the top of the screen.
  return Math.max(3, Math.min(MAX_PREVIEW_LINES, window.rows - around - dialog - 1));
}

/** The approval dialog: what will run, why it asks, and the numbered choices with what each does. */
function Dialog({ state, previewLines }: { state: DialogState; previewLines: number }): ReactElement {
  const { prompt, selected } = state;
  return h(
    Box,
    { flexDirection: "column", borderStyle: "round", borderColor: "yellow", paddingX: 1, marginTop: 1 },
    h(Text, { bold: true }, prompt.title),
    h(
      Box,
      { marginLeft: 2, marginY: 1 },
      // The command is what is approved: shown whole and plain, not dimmed as in a tool's result.
      prompt.preview.kind === "command"
        ? h(Text, null, `$ ${prompt.preview.command}`)
        : h(ViewBlock, { view: prompt.preview, maxLines: previewLines }),
    ),
    h(Text, { dimColor: true }, prompt.reason),
    h(Text, null, "Do you want to proceed?"),
    ...prompt.options.map((option, index) => {
      const color = index === selected ? "cyan" : undefined;
      const shortcut =
        option.effect.kind === "acceptEdits" ? " (shift+tab)" : option.effect.kind === "no" ? " (esc)" : "";
      return h(
        Box,
        { key: option.key, flexDirection: "column" },
        h(
          Box,
          null,
          h(Text, { color }, `${index === selected ? "❯" : " "} ${option.key}. `),
          h(Text, { color }, `${option.label}${shortcut}`),
        ),
        option.detail ? h(Box, { marginLeft: 5 }, h(Text, { dimColor: true }, option.detail)) : null,
      );
    }),
  );
}

/** A list to pick one line from (/resume): the highlighted line, numbers, and a detail under each. */
function PickerView({ picker }: { picker: PickerState }): ReactElement {
  return h(
    Box,
    { flexDirection: "column", borderStyle: "round", borderColor: "cyan", paddingX: 1, marginTop: 1 },
    h(Text, { bold: true }, picker.title),
    ...picker.items.map((item, index) => {
      const color = index === picker.selected ? "cyan" : undefined;
      return h(
        Box,
        { key: index, flexDirection: "column" },
        h(Text, { color }, `${index === picker.selected ? "❯" : " "} ${index + 1}. ${item.label}`),
        item.detail ? h(Box, { marginLeft: 5 }, h(Text, { dimColor: true }, item.detail)) : null,
      );
    }),
  );
}

/** An MCP server's form: its message and the field asked now; the answer is typed on the prompt line. */
function FormDialog({ form }: { form: FormState }): ReactElement {
  return h(
    Box,
    { flexDirection: "column", borderStyle: "round", borderColor: "yellow", paddingX: 1, marginTop: 1 },
    h(Text, { bold: true }, `${form.title}${form.step ? ` (${form.step})` : ""}:`),
    h(Text, null, form.message),
    form.field ? h(Box, { marginTop: 1 }, h(Text, { bold: true }, form.field)) : null,
    form.description ? h(Text, { dimColor: true }, form.description) : null,
    ...form.choices.map((choice) => h(Text, { key: choice }, `  ${choice}`)),
    form.problem ? h(Text, { color: "red" }, form.problem) : null,
    h(Text, { dimColor: true }, form.hint),
  );
}

/**
 * Lines of the live area outside an approval dialog: streaming text above it; the prompt box (margin,
 * border, its lines), a hint and the status line below. Running tools are not shown under a dialog:
 * the dialog names the call it asks about.
 */
function linesAroundDialog(state: UiState, columns: number): number {
  const streaming = state.streamingText ? 1 + wrappedLines(state.streamingText, columns) : 0;
  const prompt = 1 + 2 + Math.max(1, wrappedLines(state.prompt.text, columns - 6));
  return streaming + prompt + (state.hint ? 1 : 0) + 1;
}

export function App({ controller }: { controller: InteractiveController }): ReactElement {
  const [state, setState] = useState<UiState>(controller.state);
  const window = useWindowSize();
  useEffect(() => controller.subscribe(() => setState(controller.state)), [controller]);
  useInput((input, key) => controller.key(input, key));
  usePaste((text) => controller.paste(text));
  // Effects run in order: once this one has run, the terminal is in raw mode and keys reach the
  // handlers above. Until then the status line says so (keys typed earlier arrive as cooked lines).
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  return h(
    Box,
    { flexDirection: "column" },
    h(Static<HistoryItem>, {
      items: state.history,
      // biome-ignore lint/correctness/noChildrenProp: Static takes a render function, and there is no JSX here
      children: (item: HistoryItem) => h(HistoryLine, { key: item.id, item }),
    }),
    state.streamingText ? h(Box, { marginTop: 1 }, h(Text, null, state.streamingText)) : null,
    ...(state.dialog ? [] : state.tools.map((entry) => h(ToolLine, { key: entry.id, entry }))),
    state.picker && !state.dialog
      ? h(PickerView, { picker: state.picker })
      : state.dialog
        ? h(Dialog, {
            state: state.dialog,
            previewLines: previewLineBudget(
              state.dialog.prompt,
              window,
              linesAroundDialog(state, window.columns),
            ),
          })
        : state.form
          ? h(FormDialog, { form: state.form })
          : null,
    h(
      Box,
      {
        marginTop: 1,
        borderStyle: "round",
        // The line is live for a prompt when the agent is idle, and for a form's answer.
        borderColor: state.dialog || (state.running && !state.form) ? "gray" : "cyan",
        paddingX: 1,
        flexDirection: "column",
      },
      h(PromptView, {
        editor: state.form && !state.dialog ? state.form.editor : state.prompt,
        active: !state.dialog,
      }),
    ),
    state.suggestions && !state.dialog
      ? h(
          Box,
          { flexDirection: "column", marginLeft: 2 },
          ...state.suggestions.map((path, index) =>
            h(Text, { key: path, dimColor: index > 0, color: index === 0 ? "cyan" : undefined }, `@${path}`),
          ),
          h(Text, { dimColor: true }, "Tab completes the first"),
        )
      : null,
    state.hint ? h(Text, { color: "yellow" }, state.hint) : null,
    h(
      Text,
      { dimColor: true },
      !live
        ? "starting…"
        : state.form && !state.dialog
          ? `answering a form (Esc declines it, Ctrl-C stops) · ${state.status}`
          : state.running
            ? `working… (Esc or Ctrl-C to stop) · ${state.status}`
            : state.status,
    ),
  );
}
