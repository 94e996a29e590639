import "server-only";
import fs from "node:fs";

/**
 * Reads a JSON file of any size as JSON.parse would: large files exceed V8's string limit, so
 * they are scanned as bytes and each record is parsed alone. Errors give their place; a BOM is skipped.
 */

/** Files of at least this many bytes are streamed. */
export const STREAM_THRESHOLD = 64 * 1024 * 1024;
const CHUNK_SIZE = 1024 * 1024;
/**
 * Containers above this depth are built here; values at it are records handed to JSON.parse
 * (depth 0 is the document, 1 its sections, 2 a section's records).
 */
const RECORD_DEPTH = 2;

export interface ReadJsonOptions {
  /** Files of at least this many bytes are streamed (default STREAM_THRESHOLD). */
  streamThreshold?: number;
  /** Bytes read at a time when streaming (default 1 MiB). */
  chunkSize?: number;
  /** Depth of the values handed to JSON.parse whole when streaming (default 2). */
  recordDepth?: number;
}

export interface JsonPosition {
  /** Bytes from the start of the file. */
  offset: number;
  line: number;
  /** In characters, from 1. */
  column: number;
}

/** The file is not valid JSON; `position` is where the problem was found. */
export class InvalidJsonError extends Error {
  override name = "InvalidJsonError";
  constructor(
    readonly reason: string,
    readonly position?: JsonPosition,
  ) {
    super(
      position
        ? `${reason} at line ${position.line}, column ${position.column} (byte ${position.offset})`
        : reason,
    );
  }
}

/** Reads and parses `file`; throws InvalidJsonError, or the file system's error when unreadable. */
export async function readJsonFile(file: string, options: ReadJsonOptions = {}): Promise<unknown> {
  const { size } = await fs.promises.stat(file);
  if (size < (options.streamThreshold ?? STREAM_THRESHOLD))
    return parseJsonBytes(await fs.promises.readFile(file));
  const parser = new JsonStreamParser(options.recordDepth);
  const stream = fs.createReadStream(file, { highWaterMark: options.chunkSize ?? CHUNK_SIZE });
  // A throw in the loop destroys the stream: a file refused early is not read to its end.
  for await (const chunk of stream) parser.write(chunk as Buffer);
  return parser.end();
}

/** JSON.parse of UTF-8 bytes (a leading byte order mark skipped); a refusal says where. */
export function parseJsonBytes(bytes: Buffer): unknown {
  const text = bytes.toString("utf8");
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    // JSON.parse does not always say where (Node 20: `Unexpected token 'n', "{ nope" is not valid
    // JSON`): the byte scanner finds the place.
    const parser = new JsonStreamParser();
    parser.write(bytes);
    parser.end();
    // The scanner accepting what JSON.parse refuses would be a bug: JSON.parse's word stands.
    throw new InvalidJsonError((error as Error).message);
  }
}

// Scanner states. The first ones are between tokens, where whitespace is skipped.
const VALUE = 0; // a value (the document, or after ':')
const ARRAY_FIRST = 1; // after '[': a value or ']'
const ARRAY_NEXT = 2; // after ',' in an array: a value
const OBJECT_FIRST = 3; // after '{': a property name or '}'
const OBJECT_NEXT = 4; // after ',' in an object: a property name
const COLON = 5;
const AFTER_VALUE = 6; // ',' or the container's end
const END = 7; // after the document: whitespace only
const LAST_BETWEEN_TOKENS = END;
const BOM = 8; // the first bytes of the file
const STRING = 9;
const ESCAPE = 10;
const UNICODE = 11; // in the hex digits of \uXXXX
const NUMBER_MINUS = 12; // after '-': a digit
const NUMBER_ZERO = 13; // a leading 0: '.', 'e' or the end
const NUMBER_INTEGER = 14;
const NUMBER_POINT = 15; // after '.': a digit
const NUMBER_FRACTION = 16;
const NUMBER_E = 17; // after 'e': a sign or a digit
const NUMBER_E_SIGN = 18; // after the exponent's sign: a digit
const NUMBER_EXPONENT = 19;
const LITERAL = 20; // in true, false or null

const OBJECT = 0;
const ARRAY = 1;

const NO_SLICE = 0;
const VALUE_SLICE = 1;
const KEY_SLICE = 2;

const BOM_BYTES = [0xef, 0xbb, 0xbf];
const TRUE = Buffer.from("true");
const FALSE = Buffer.from("false");
const NULL = Buffer.from("null");

const isDigit = (b: number) => b >= 0x30 && b <= 0x39;
const isHexDigit = (b: number) =>
  (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

function describeByte(b: number): string {
  if (b >= 0x20 && b < 0x7f) return `'${String.fromCharCode(b)}'`;
  return `byte 0x${b.toString(16).toUpperCase().padStart(2, "0")}`;
}

/** A container built here: the value and, in an object, the name of the member being read. */
interface BuiltContainer {
  value: unknown[] | Record<string, unknown>;
  key: string;
}

/** As JSON.parse: a member named `__proto__` is an own property, not the prototype. */
function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/**
 * A byte-level JSON grammar checker fed UTF-8 chunks, so errors have exact places; values are
 * made by JSON.parse on byte slices, each record at `recordDepth` as one slice.
 */
export class JsonStreamParser {
  private state = BOM;
  /** Offset in the file of the current chunk's first byte. */
  private offset = 0;
  private line = 1;
  private lineStart = 0;
  /** UTF-8 continuation bytes since lineStart: the column counts characters, not bytes. */
  private lineContinuations = 0;
  /** OBJECT or ARRAY for every open container. */
  private readonly containers: number[] = [];
  /** The open containers built here: the first ones of `containers`. */
  private readonly built: BuiltContainer[] = [];
  private root: unknown;
  private sliceKind = NO_SLICE;
  /** containers.length when the slice began: it ends when its value ends at this depth. */
  private sliceDepth = 0;
  /** Where the slice begins in the current chunk (0 when it began in an earlier one). */
  private sliceFrom = 0;
  /** The slice's bytes from earlier chunks. */
  private sliceParts: Buffer[] = [];
  private stringIsKey = false;
  private unicodeLeft = 0;
  private literal = TRUE;
  private literalIndex = 0;

  constructor(private readonly recordDepth = RECORD_DEPTH) {}

  write(chunk: Buffer): void {
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      const b = chunk[i]!;
      const state = this.state;
      if (state <= LAST_BETWEEN_TOKENS) {
        if (b === 0x20 || b === 0x09 || b === 0x0d) {
          i++;
          continue;
        }
        if (b === 0x0a) {
          i++;
          this.line++;
          this.lineStart = this.offset + i;
          this.lineContinuations = 0;
          continue;
        }
      }
      switch (state) {
        case BOM:
          if (b === BOM_BYTES[this.offset + i]) {
            i++;
            if (this.offset + i === BOM_BYTES.length) {
              this.state = VALUE;
              this.lineStart = BOM_BYTES.length;
            }
          } else if (this.offset + i === 0) this.state = VALUE;
          else this.fail("Incomplete byte order mark", 0);
          break;
        case VALUE:
        case ARRAY_FIRST:
        case ARRAY_NEXT:
          if (b === 0x5d && state === ARRAY_FIRST) {
            this.closeContainer(chunk, i + 1);
          } else if (!this.startValue(b, chunk, i)) {
            if (b === 0x5d && state === ARRAY_NEXT) this.fail("Unexpected ']' after ','", this.offset + i);
            this.fail(
              `Unexpected ${describeByte(b)}, expected a value${state === ARRAY_FIRST ? " or ']'" : ""}`,
              this.offset + i,
            );
          }
          i++;
          break;
        case OBJECT_FIRST:
        case OBJECT_NEXT:
          if (b === 0x22) {
            this.stringIsKey = true;
            if (this.sliceKind === NO_SLICE) this.startSlice(KEY_SLICE, i);
            this.state = STRING;
          } else if (b === 0x7d && state === OBJECT_FIRST) {
            this.closeContainer(chunk, i + 1);
          } else if (b === 0x7d) {
            this.fail("Unexpected '}' after ','", this.offset + i);
          } else {
            this.fail(
              `Unexpected ${describeByte(b)}, expected a property name in double quotes${state === OBJECT_FIRST ? " or '}'" : ""}`,
              this.offset + i,
            );
          }
          i++;
          break;
        case COLON:
          if (b !== 0x3a)
            this.fail(`Unexpected ${describeByte(b)}, expected ':' after the property name`, this.offset + i);
          this.state = VALUE;
          i++;
          break;
        case AFTER_VALUE: {
          const container = this.containers[this.containers.length - 1];
          if (b === 0x2c) this.state = container === ARRAY ? ARRAY_NEXT : OBJECT_NEXT;
          else if (b === (container === ARRAY ? 0x5d : 0x7d)) this.closeContainer(chunk, i + 1);
          else
            this.fail(
              `Unexpected ${describeByte(b)}, expected ',' or '${container === ARRAY ? "]" : "}"}'`,
              this.offset + i,
            );
          i++;
          break;
        }
        case END:
          this.fail(`Unexpected ${describeByte(b)} after the JSON value`, this.offset + i);
          break;
        case STRING: {
          // The hot loop: most bytes of a file are in strings.
          let continuations = 0;
          let c = b;
          while (c !== 0x22 && c !== 0x5c && c >= 0x20) {
            if ((c & 0xc0) === 0x80) continuations++;
            if (++i === n) break;
            c = chunk[i]!;
          }
          this.lineContinuations += continuations;
          if (i === n) break;
          if (c === 0x5c) this.state = ESCAPE;
          else if (c === 0x22) {
            if (!this.stringIsKey) this.valueDone(chunk, i + 1);
            else {
              if (this.sliceKind === KEY_SLICE)
                this.built[this.built.length - 1]!.key = this.endSlice(chunk, i + 1) as string;
              this.state = COLON;
            }
          } else this.fail(`Unescaped control character (${describeByte(c)}) in a string`, this.offset + i);
          i++;
          break;
        }
        case ESCAPE:
          if (b === 0x75) {
            this.state = UNICODE;
            this.unicodeLeft = 4;
          } else if (
            b === 0x22 ||
            b === 0x5c ||
            b === 0x2f ||
            b === 0x62 ||
            b === 0x66 ||
            b === 0x6e ||
            b === 0x72 ||
            b === 0x74
          )
            this.state = STRING;
          else this.fail(`Invalid escape '\\' followed by ${describeByte(b)} in a string`, this.offset + i);
          i++;
          break;
        case UNICODE:
          if (!isHexDigit(b))
            this.fail(`Unexpected ${describeByte(b)} in a \\u escape, expected a hex digit`, this.offset + i);
          if (--this.unicodeLeft === 0) this.state = STRING;
          i++;
          break;
        case NUMBER_MINUS:
        case NUMBER_POINT:
        case NUMBER_E_SIGN:
          if (!isDigit(b))
            this.fail(`Unexpected ${describeByte(b)} in a number, expected a digit`, this.offset + i);
          this.state = state === NUMBER_MINUS ? (b === 0x30 ? NUMBER_ZERO : NUMBER_INTEGER) : state + 1;
          i++;
          break;
        case NUMBER_E:
          if (b === 0x2b || b === 0x2d) this.state = NUMBER_E_SIGN;
          else if (isDigit(b)) this.state = NUMBER_EXPONENT;
          else this.fail(`Unexpected ${describeByte(b)} in a number, expected a digit`, this.offset + i);
          i++;
          break;
        case NUMBER_ZERO:
        case NUMBER_INTEGER:
        case NUMBER_FRACTION:
        case NUMBER_EXPONENT:
          if (isDigit(b) && state !== NUMBER_ZERO) i++;
          else if (b === 0x2e && state !== NUMBER_FRACTION && state !== NUMBER_EXPONENT) {
            this.state = NUMBER_POINT;
            i++;
          } else if ((b === 0x65 || b === 0x45) && state !== NUMBER_EXPONENT) {
            this.state = NUMBER_E;
            i++;
          } else this.valueDone(chunk, i); // this byte follows the number: read it again
          break;
        case LITERAL:
          if (b !== this.literal[this.literalIndex])
            this.fail(
              `Unexpected ${describeByte(b)}, expected '${this.literal.toString()}'`,
              this.offset + i,
            );
          i++;
          if (++this.literalIndex === this.literal.length) this.valueDone(chunk, i);
          break;
      }
    }
    if (this.sliceKind !== NO_SLICE) {
      this.sliceParts.push(Buffer.from(chunk.subarray(this.sliceFrom)));
      this.sliceFrom = 0;
    }
    this.offset += n;
  }

  /** The parsed value, once every chunk is written. */
  end(): unknown {
    const state = this.state;
    if (
      state === NUMBER_ZERO ||
      state === NUMBER_INTEGER ||
      state === NUMBER_FRACTION ||
      state === NUMBER_EXPONENT
    )
      this.valueDone(undefined, 0);
    if (this.state === END) return this.root;
    if (this.offset === 0) this.fail("The file is empty", 0);
    if (this.state === STRING || this.state === ESCAPE || this.state === UNICODE)
      this.fail("Unexpected end of the file in a string", this.offset);
    this.fail("Unexpected end of the file", this.offset);
  }

  /** Starts the value whose first byte is `b`; false when no value starts so. */
  private startValue(b: number, chunk: Buffer, i: number): boolean {
    const depth = this.containers.length;
    let container = -1;
    if (b === 0x7b) {
      container = OBJECT;
      this.state = OBJECT_FIRST;
    } else if (b === 0x5b) {
      container = ARRAY;
      this.state = ARRAY_FIRST;
    } else if (b === 0x22) {
      this.stringIsKey = false;
      this.state = STRING;
    } else if (b === 0x2d) this.state = NUMBER_MINUS;
    else if (b === 0x30) this.state = NUMBER_ZERO;
    else if (b >= 0x31 && b <= 0x39) this.state = NUMBER_INTEGER;
    else if (b === 0x74 || b === 0x66 || b === 0x6e) {
      this.literal = b === 0x74 ? TRUE : b === 0x66 ? FALSE : NULL;
      this.literalIndex = 1;
      this.state = LITERAL;
    } else return false;
    if (container === -1) {
      if (this.sliceKind === NO_SLICE) this.startSlice(VALUE_SLICE, i);
      return true;
    }
    if (this.sliceKind === NO_SLICE) {
      if (depth >= this.recordDepth) this.startSlice(VALUE_SLICE, i);
      else {
        const value = container === ARRAY ? [] : {};
        this.attach(value);
        this.built.push({ value, key: "" });
      }
    }
    this.containers.push(container);
    return true;
  }

  /** The container closes with the byte before `end`. */
  private closeContainer(chunk: Buffer, end: number): void {
    this.containers.pop();
    if (this.sliceKind === NO_SLICE) {
      this.built.pop();
      this.state = this.containers.length === 0 ? END : AFTER_VALUE;
    } else this.valueDone(chunk, end);
  }

  /** A value ended with the byte before `end` (`chunk` undefined: at the end of the file). */
  private valueDone(chunk: Buffer | undefined, end: number): void {
    if (this.sliceKind === VALUE_SLICE && this.containers.length === this.sliceDepth)
      this.attach(this.endSlice(chunk, end));
    this.state = this.containers.length === 0 ? END : AFTER_VALUE;
  }

  private attach(value: unknown): void {
    const parent = this.built[this.built.length - 1];
    if (!parent) this.root = value;
    else if (Array.isArray(parent.value)) parent.value.push(value);
    else setMember(parent.value, parent.key, value);
  }

  private startSlice(kind: number, from: number): void {
    this.sliceKind = kind;
    this.sliceDepth = this.containers.length;
    this.sliceFrom = from;
  }

  private endSlice(chunk: Buffer | undefined, end: number): unknown {
    const parts = this.sliceParts;
    let text: string;
    if (parts.length === 0) text = chunk!.toString("utf8", this.sliceFrom, end);
    else {
      if (chunk) parts.push(chunk.subarray(0, end));
      text = Buffer.concat(parts).toString("utf8");
      this.sliceParts = [];
    }
    this.sliceKind = NO_SLICE;
    // The bytes were checked as they came: JSON.parse refusing them would be a bug here.
    return JSON.parse(text);
  }

  private fail(reason: string, offset: number): never {
    // The column counts characters: continuation bytes only occur in strings, so counting them
    // there is enough (a refused non-ASCII byte elsewhere is the error's own place).
    const column = offset - this.lineStart - this.lineContinuations + 1;
    throw new InvalidJsonError(reason, { offset, line: this.line, column: Math.max(1, column) });
  }
}
