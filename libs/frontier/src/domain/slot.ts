/** One slot of one frontier of a project. */
export interface SlotRef {
  project: number;
  frontier: string;
  slot: string;
}

export function slotOf(d: { project: number; frontier: string; slot: string }): SlotRef {
  return { project: d.project, frontier: d.frontier, slot: d.slot };
}
