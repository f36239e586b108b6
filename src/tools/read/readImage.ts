// Images come back as image blocks, downscaled (sharp) to fit what models accept.
import { readFile } from "node:fs/promises";
import type sharpModule from "sharp";
import { ToolError } from "../../tool/errors.ts";
import { isImageMediaType } from "../../tool/messages.ts";
import type { ImageMediaType, ReadOutput } from "./output.ts";

/** File name endings Read shows as images: those of IMAGE_MEDIA_TYPES (tool/messages.ts), jpg included. */
export const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "gif", "webp"]);
export const MAX_IMAGE_DIMENSION = 2000;
/** Base64 characters an image block may carry. */
export const MAX_IMAGE_BASE64_CHARS = Math.floor(3.75 * 1024 * 1024);
const MAX_IMAGE_FILE_BYTES = 100 << 20;

/** The media type of a format sharp names, when models take it as is (tool/messages.ts keeps the list). */
function mediaTypeOf(format: string | undefined): ImageMediaType | undefined {
  const type = `image/${format}`;
  return format !== undefined && isImageMediaType(type) ? type : undefined;
}

function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

type Sharp = typeof sharpModule;

/** sharp (libvips) is loaded on the first image, so sessions that never read one do not pay for it. */
async function loadSharp(): Promise<Sharp> {
  return (await import("sharp")).default;
}

async function encode(
  sharp: Sharp,
  input: Buffer,
  format: "png" | "jpeg" | "webp",
  maxDimension: number,
  quality: number,
): Promise<{ data: Buffer; width: number; height: number }> {
  let pipeline = sharp(input, { animated: false }).rotate().resize({
    width: maxDimension,
    height: maxDimension,
    fit: "inside",
    withoutEnlargement: true,
  });
  pipeline =
    format === "png"
      ? pipeline.png()
      : format === "webp"
        ? pipeline.webp({ quality })
        : pipeline.jpeg({ quality });
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The image as it is when it already fits, else re-encoded smaller until it does. */
export async function readImage(path: string, size: number): Promise<ReadOutput> {
  if (size > MAX_IMAGE_FILE_BYTES) {
    throw new ToolError(
      "too_large",
      `${path} is ${size} bytes; images over ${MAX_IMAGE_FILE_BYTES} bytes are not read.`,
    );
  }
  const bytes = await readFile(path);
  const sharp = await loadSharp();
  let metadata: Awaited<ReturnType<ReturnType<Sharp>["metadata"]>>;
  try {
    metadata = await sharp(bytes).metadata();
  } catch (error) {
    throw new ToolError(
      "unsupported_file",
      `${path} could not be decoded as an image (${(error as Error).message}). It may be corrupt or not the format its name says.`,
    );
  }
  const originalWidth = metadata.width ?? 0;
  const originalHeight = metadata.height ?? 0;
  const media = mediaTypeOf(metadata.format);
  const fits =
    media !== undefined &&
    originalWidth <= MAX_IMAGE_DIMENSION &&
    originalHeight <= MAX_IMAGE_DIMENSION &&
    base64Length(bytes.length) <= MAX_IMAGE_BASE64_CHARS;
  let data: Buffer = bytes;
  let type: ImageMediaType = media ?? "image/png";
  let width = originalWidth;
  let height = originalHeight;
  if (!fits) {
    const keep = metadata.format === "jpeg" || metadata.format === "webp" ? metadata.format : "png";
    const attempts: Array<{ format: "png" | "jpeg" | "webp"; dimension: number; quality: number }> = [
      { format: keep, dimension: MAX_IMAGE_DIMENSION, quality: 85 },
      { format: "jpeg", dimension: MAX_IMAGE_DIMENSION, quality: 75 },
      { format: "jpeg", dimension: 1400, quality: 65 },
      { format: "jpeg", dimension: 1000, quality: 55 },
      { format: "jpeg", dimension: 600, quality: 45 },
    ];
    for (const attempt of attempts) {
      const encoded = await encode(sharp, bytes, attempt.format, attempt.dimension, attempt.quality);
      data = encoded.data;
      width = encoded.width;
      height = encoded.height;
      type = mediaTypeOf(attempt.format) as ImageMediaType;
      if (base64Length(data.length) <= MAX_IMAGE_BASE64_CHARS) break;
    }
  }
  return {
    type: "image",
    file: {
      filePath: path,
      base64: data.toString("base64"),
      type,
      originalSize: bytes.length,
      dimensions: { originalWidth, originalHeight, displayWidth: width, displayHeight: height },
    },
  };
}
