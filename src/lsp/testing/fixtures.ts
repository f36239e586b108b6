// Small real projects for the language server tests, written into a test's temp folder, and a way to
// point at a word in them by the text of its line (so tests do not hard-code columns).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export type ProjectFiles = Record<string, string>;

export function writeProject(root: string, files: ProjectFiles): void {
  for (const [name, text] of Object.entries(files)) {
    const path = join(root, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}

/** 1-based line and character of `word` on the first line containing `lineText`. */
export function positionOf(
  path: string,
  lineText: string,
  word: string,
): { line: number; character: number } {
  const lines = readFileSync(path, "utf8").split("\n");
  const index = lines.findIndex((line) => line.includes(lineText));
  if (index === -1) throw new Error(`no line containing ${JSON.stringify(lineText)} in ${path}`);
  const column = (lines[index] as string).indexOf(word, (lines[index] as string).indexOf(lineText));
  if (column === -1) throw new Error(`no ${JSON.stringify(word)} on line ${index + 1} of ${path}`);
  return { line: index + 1, character: column + 1 };
}

export const TYPESCRIPT_PROJECT: ProjectFiles = {
  "tsconfig.json": JSON.stringify({
    compilerOptions: { strict: true, target: "es2022", module: "nodenext", noEmit: true },
    include: ["src"],
  }),
  "src/shapes.ts": `export interface Shape {
  area(): number;
}

export class Square implements Shape {
  constructor(private readonly side: number) {}
  area(): number {
    return this.side * this.side;
  }
}

export class Circle implements Shape {
  constructor(private readonly radius: number) {}
  area(): number {
    return Math.PI * this.radius ** 2;
  }
}

/** Adds up the areas of all shapes. */
export function totalArea(shapes: Shape[]): number {
  return shapes.reduce((sum, shape) => sum + shape.area(), 0);
}
`,
  "src/main.ts": `import { Circle, Square, totalArea } from "./shapes.js";

export function report(): string {
  const total = totalArea([new Square(2), new Circle(1)]);
  return \`total: \${total}\`;
}
`,
  "src/secret.ts": `import { totalArea } from "./shapes.js";

export const hiddenTotal = totalArea([]);
`,
  "src/broken.ts": `export const count: number = "one";
`,
};

export const PYTHON_PROJECT: ProjectFiles = {
  "pyrightconfig.json": JSON.stringify({ include: ["app"] }),
  "app/__init__.py": "",
  "app/shapes.py": `class Shape:
    def area(self) -> float:
        raise NotImplementedError


class Square(Shape):
    def __init__(self, side: float) -> None:
        self.side = side

    def area(self) -> float:
        return self.side * self.side


def total_area(shapes: list[Shape]) -> float:
    """Adds up the areas of all shapes."""
    return sum(shape.area() for shape in shapes)
`,
  "app/main.py": `from app.shapes import Square, total_area


def report() -> str:
    total = total_area([Square(2)])
    return f"total: {total}"
`,
  "app/broken.py": `count: int = "one"
`,
};
