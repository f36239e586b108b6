// Build, test and language tools, for the option table: the options that load code (configs,
// plugins, preloads, toolchains), change the folder or the packages used, or name outputs.
import type { OptionTable } from "./dangerousOptionTable.ts";
import { words } from "./options.ts";

export const PYTEST: OptionTable = {
  valued: "kmpcoWnr",
  runs: {
    long: words(
      "--config-file= --rootdir= --confcutdir= --override-ini= --pdbcls= --pythonwarnings=",
      "--cov-config= --import-mode= --pyargs",
    ),
    short: "pcoW",
  },
  writes: {
    long: words(
      "--basetemp= --junitxml= --junit-xml= --result-log= --resultlog= --log-file= --debug",
      "--cov-report= --html= --alluredir= --report-log=",
    ),
  },
  unknownLong: "generic",
};

const PIP_INSTALL: OptionTable = {
  valued: "rcetifd",
  runs: {
    long: words(
      "--index-url= --extra-index-url= --find-links= --trusted-host= --proxy= --cert= --client-cert=",
    ),
    short: "if",
  },
  writes: {
    long: words("--target= --prefix= --root= --user --src= --log= --cache-dir= --report= --dest="),
    short: "td",
  },
};
export const PIP: OptionTable = {
  valuedLong: words("--log= --cache-dir= --proxy= --cert= --client-cert= --python="),
  runs: { long: ["--python=", "--proxy=", "--isolated"] },
  writes: { long: ["--log=", "--cache-dir="] },
  subcommands: { install: PIP_INSTALL, download: PIP_INSTALL, wheel: PIP_INSTALL },
};

export const PYTHON: OptionTable = {
  valued: "cmWX",
  runs: { short: "cW" },
  launches: "-m",
  firstOperand: "arguments",
};

export const NODE: OptionTable = {
  valued: "rep",
  valuedLong: words("--stack-size= --max-old-space-size= --conditions= --title="),
  runs: {
    long: words(
      "--require= --import= --loader= --experimental-loader= --eval= --print= --env-file=",
      "--env-file-if-exists= --inspect --inspect-brk --inspect-wait --inspect-port= --openssl-config=",
      "--test-reporter= --experimental-config-file= --snapshot-blob=",
    ),
    short: "rep",
  },
  writes: {
    long: words(
      "--redirect-warnings= --report-dir= --report-directory= --report-filename= --cpu-prof-dir=",
      "--heap-prof-dir= --diagnostic-dir= --test-reporter-destination= --experimental-test-coverage",
    ),
  },
  firstOperand: "arguments",
};

const GO_BUILD: OptionTable = {
  style: "single-dash",
  abbreviations: false,
  valuedLong: words(
    "-p= -tags= -run= -bench= -count= -timeout= -covermode= -coverpkg= -parallel= -cpu= -mod=",
    "-benchtime= -shuffle= -skip= -fuzz= -fuzztime= -list= -buildvcs= -installsuffix= -buildmode=",
  ),
  runs: {
    long: words(
      "-exec= -toolexec= -overlay= -modfile= -ldflags= -gcflags= -asmflags= -gccgoflags= -compiler=",
      "-vettool= -C=",
    ),
  },
  writes: {
    long: words(
      "-o= -coverprofile= -cpuprofile= -memprofile= -blockprofile= -mutexprofile= -trace=",
      "-outputdir= -pkgdir= -test.coverprofile= -test.cpuprofile= -test.memprofile=",
      "-test.blockprofile= -test.mutexprofile= -test.trace= -test.outputdir=",
    ),
  },
};
export const GO: OptionTable = {
  ...GO_BUILD,
  subcommands: {
    env: { style: "single-dash", abbreviations: false, runs: { long: ["-w"] } },
  },
};

export const CARGO: OptionTable = {
  valued: "pjFZC",
  runs: {
    long: words("--config= --manifest-path= --registry= --index= --git= --path= --lockfile-path="),
    short: "ZC",
  },
  writes: { long: words("--target-dir= --out-dir= --artifact-dir= --root= --lockfile-path=") },
  afterDoubleDash: "arguments",
};

export const TSC: OptionTable = {
  style: "single-dash",
  abbreviations: false,
  caseInsensitive: true,
  writes: {
    long: words(
      "--outDir= --outFile= --out= --declarationDir= --tsBuildInfoFile= --generateTrace=",
      "--generateCpuProfile=",
    ),
  },
};

export const ESLINT: OptionTable = {
  valued: "cfo",
  runs: {
    long: words(
      "--config= --rulesdir= --plugin= --resolve-plugins-relative-to= --parser= --format=",
      "--inspect-config --mcp",
    ),
    short: "cf",
  },
  writes: { long: ["--output-file=", "--cache-location=", "--cache-file="], short: "o" },
  unknownLong: "generic",
};

export const PRETTIER: OptionTable = {
  runs: { long: ["--plugin=", "--config=", "--plugin-search-dir="] },
  writes: { long: ["--cache-location="] },
  unknownLong: "generic",
};

export const TEST_RUNNER: OptionTable = {
  valued: "ctr",
  runs: {
    long: words(
      "--config= --setupFiles= --setupFilesAfterEnv= --globalSetup= --globalTeardown= --testRunner=",
      "--testEnvironment= --environment= --transform= --reporters= --reporter= --resolver=",
      "--preset= --runner= --snapshotResolver= --testSequencer= --watchPlugins= --pool= --root=",
      "--dir= --rootDir= --roots= --projects= --api --ui --inspect --inspect-brk",
    ),
    short: "cr",
  },
  writes: { long: ["--outputFile=", "--coverageDirectory=", "--cacheDirectory="] },
  unknownLong: "generic",
};

export const TERRAFORM: OptionTable = {
  style: "single-dash",
  abbreviations: false,
  runs: { long: words("-chdir= -plugin-dir= -var-file= -backend-config=") },
  writes: { long: words("-out= -state-out= -backup= -state=") },
};

export const GRADLE: OptionTable = {
  valued: "IbcpgD",
  runs: {
    long: words(
      "--init-script= --build-file= --settings-file= --project-dir= --gradle-user-home= --include-build=",
    ),
    short: "Ibcpg",
  },
  writes: { long: ["--project-cache-dir="] },
};

export const MAVEN: OptionTable = {
  valued: "fsltD",
  exact: { "-gs": { kind: "runs", takesValue: true } },
  runs: { long: words("--file= --settings= --global-settings= --toolchains="), short: "fst" },
  writes: { long: ["--log-file="], short: "l" },
};

const DENO_RUN: OptionTable = {
  valued: "cr",
  runs: {
    long: words(
      "--allow-all --allow-run --allow-ffi --allow-scripts --allow-import --config= --import-map=",
      "--preload= --require= --env-file --cert= --location=",
    ),
    short: "Acr",
  },
  writes: { long: ["--allow-write", "--output=", "--coverage="], short: "o" },
  firstOperand: "arguments",
};
export const DENO: OptionTable = {
  ...DENO_RUN,
  subcommands: Object.fromEntries(
    words("run test bench serve compile check task install").map((name) => [name, DENO_RUN]),
  ),
};

export const COMPILER: OptionTable = {
  prefixed: [
    ["-fplugin", "runs"],
    ["-B", "runs"],
    ["-wrapper", "runs"],
    ["-specs", "runs"],
    ["--specs", "runs"],
    ["-fuse-ld", "runs"],
    ["--ld-path", "runs"],
    ["-o", "writes"],
    ["-MF", "writes"],
    ["-dumpdir", "writes"],
    ["-save-temps", "writes"],
  ],
  style: "single-dash",
  abbreviations: false,
};

/** docker/podman: host folders, devices and namespaces given to a container, its entry point, files written. */
const CONTAINER_RUN: OptionTable = {
  valued: "vewuhlpco",
  runs: {
    long: words(
      "--volume= --mount= --volumes-from= --device= --privileged --cap-add= --security-opt= --pid=",
      "--network= --net= --ipc= --uts= --userns= --cgroupns= --entrypoint= --env-file=",
      "--add-host= --runtime= --gpus=",
    ),
    short: "v",
  },
  writes: { long: ["--cidfile=", "--iidfile=", "--output=", "--metadata-file="], short: "o" },
};
export const CONTAINER: OptionTable = {
  runs: { long: ["--host=", "--config=", "--context="], short: "Hc" },
  valued: "Hc",
  subcommands: Object.fromEntries(
    words("run create exec build buildx start compose").map((name) => [name, CONTAINER_RUN]),
  ),
  anySubcommand: { unknownLong: "generic" },
};
