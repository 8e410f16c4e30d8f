// The deadline and kill-tree helper lives with the job sandbox in the runner (one door for job
// processes); the server's jobs use the same one.
export { runChild, type ChildResult } from '@rehearse/runner/child-process';
