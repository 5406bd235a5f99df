/** The project's settings (JobQ `projects/<p>/settings`; `{}` when none). */
export class GetSettingsQuery {
  constructor(readonly project: number) {}
}

/** The Scrapy settings of the project (`spider` null) or of one of its spiders, by name (`{}` when none). */
export class GetScrapySettingsQuery {
  constructor(readonly project: number, readonly spider: string | null) {}
}
