import { z } from 'zod';

/**
 * POST /api/v2/object/sign (and its v1 alias): presigned uploads, in the hosted service's
 * shapes (camelCase fields, the `status` / `error` / `result.data` envelope).
 */
export const FILE_TYPES = ['image', 'file', 'video'] as const;
export type FileType = (typeof FILE_TYPES)[number];
/** Default size limits per type (bytes). */
export const MAX_SIZE: Record<FileType, number> = {
  image: 10 * 1024 * 1024,
  file: 100 * 1024 * 1024,
  video: 500 * 1024 * 1024,
};

export const SignObjectItem = z.object({
  fileId: z
    .string()
    .min(1)
    .max(128)
    .describe('Your own id for the file; it comes back on the matching item.'),
  fileName: z
    .string()
    .min(1)
    .max(255)
    .refine((n) => !/[/\\]/.test(n), 'must be a file name, without / or \\')
    .describe('The file name, kept for display and to derive the extension.'),
  fileType: z.enum(FILE_TYPES).describe('image (10 MB), file (100 MB) or video (500 MB).'),
});

export const SignRequest = z
  .object({ objectList: z.array(SignObjectItem).min(1).max(50) })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.objectList.forEach((o, i) => {
      if (seen.has(o.fileId))
        ctx.addIssue({
          code: 'custom',
          path: ['objectList', i, 'fileId'],
          message: `duplicate fileId ${o.fileId}`,
        });
      seen.add(o.fileId);
    });
  });
export type SignRequest = z.infer<typeof SignRequest>;

export const SignedInfo = z.object({
  url: z.string().describe('POST the file here as multipart/form-data.'),
  fields: z.record(z.string(), z.string()).describe('Form fields to send exactly as given, the file last.'),
  maxSize: z.number().int().describe('Largest accepted file, in bytes.'),
});
export type SignedInfo = z.infer<typeof SignedInfo>;

export const SignResponseItem = z.object({
  fileId: z.string(),
  fileName: z.string(),
  fileType: z.string(),
  objectKey: z.string().describe('Pass it as a content item `uri` on /api/v2/memory/add.'),
  objectSignedInfo: SignedInfo,
});
export const SignResponse = z.object({ objectList: z.array(SignResponseItem) });
export type SignResponse = z.infer<typeof SignResponse>;

/** The sign answer: `status` 0 and `error` "OK" with `result.data`, or a non-zero status. */
export const SignEnvelope = z.object({
  status: z
    .number()
    .int()
    .describe(
      '0 on success; 2018 invalid parameters, 20003 not JSON, 1007 over 50 objects, 1009 duplicate fileId, 1002 unknown fileType.',
    ),
  error: z.string().describe('"OK" on success, else what went wrong.'),
  request_id: z.string(),
  result: z.object({ data: SignResponse.nullable().or(z.string()) }),
});
